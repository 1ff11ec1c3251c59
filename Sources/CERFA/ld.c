/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"
#include "erfam.h"

void eraLd(double bm, double p[3], double q[3], double e[3],
           double em, double dlim, double p1[3])

{
   int i;
   double qpe[3], qdqpe, w, eq[3], peq[3];

   for (i = 0; i < 3; i++) {
      qpe[i] = q[i] + e[i];
   }
   qdqpe = eraPdp(q, qpe);

   w = bm * ERFA_SRS / em / ERFA_GMAX(qdqpe,dlim);

   eraPxp(e, q, eq);
   eraPxp(p, eq, peq);

   for (i = 0; i < 3; i++) {
      p1[i] = p[i] + w*peq[i];
   }

}
