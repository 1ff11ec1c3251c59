// WelkinCore's clients see the sky's model (WelkinSkyModel) as part of WelkinCore.

@_exported import WelkinSkyModel
