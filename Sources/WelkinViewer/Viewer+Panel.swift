// The panel (Dear ImGui): placeholder until the shim exists.

extension Viewer {
    func togglePanel() {}
}
