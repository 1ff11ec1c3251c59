/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#ifndef ERFAMHDEF
#define ERFAMHDEF

#define ERFA_DPI (3.141592653589793238462643)

#define ERFA_D2PI (6.283185307179586476925287)

#define ERFA_DR2D (57.29577951308232087679815)

#define ERFA_DD2R (1.745329251994329576923691e-2)

#define ERFA_DR2AS (206264.8062470963551564734)

#define ERFA_DAS2R (4.848136811095359935899141e-6)

#define ERFA_DS2R (7.272205216643039903848712e-5)

#define ERFA_TURNAS (1296000.0)

#define ERFA_DMAS2R (ERFA_DAS2R / 1e3)

#define ERFA_DTY (365.242198781)

#define ERFA_DAYSEC (86400.0)

#define ERFA_DJY (365.25)

#define ERFA_DJC (36525.0)

#define ERFA_DJM (365250.0)

#define ERFA_DJ00 (2451545.0)

#define ERFA_DJM0 (2400000.5)

#define ERFA_DJM00 (51544.5)

#define ERFA_DJM77 (43144.0)

#define ERFA_TTMTAI (32.184)

#define ERFA_DAU (149597870.7e3)

#define ERFA_CMPS 299792458.0

#define ERFA_AULT (ERFA_DAU/ERFA_CMPS)

#define ERFA_DC (ERFA_DAYSEC/ERFA_AULT)

#define ERFA_ELG (6.969290134e-10)

#define ERFA_ELB (1.550519768e-8)
#define ERFA_TDB0 (-6.55e-5)

#define ERFA_SRS 1.97412574336e-8

#define ERFA_DINT(A) ((A)<0.0?ceil(A):floor(A))

#define ERFA_DNINT(A) (fabs(A)<0.5?0.0\
                                :((A)<0.0?ceil((A)-0.5):floor((A)+0.5)))

#define ERFA_DSIGN(A,B) ((B)<0.0?-fabs(A):fabs(A))

#define ERFA_GMAX(A,B) (((A)>(B))?(A):(B))

#define ERFA_GMIN(A,B) (((A)<(B))?(A):(B))

#define ERFA_WGS84 1
#define ERFA_GRS80 2
#define ERFA_WGS72 3

#endif
