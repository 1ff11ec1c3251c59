/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

void eraAtciq(double rc, double dc,
              double pr, double pd, double px, double rv,
              eraASTROM *astrom, double *ri, double *di)

{
   double pco[3], pnat[3], ppr[3], pi[3], w;

   eraPmpx(rc, dc, pr, pd, px, rv, astrom->pmt, astrom->eb, pco);

   eraLdsun(pco, astrom->eh, astrom->em, pnat);

   eraAb(pnat, astrom->v, astrom->em, astrom->bm1, ppr);

   eraRxp(astrom->bpn, ppr, pi);

   eraC2s(pi, &w, di);
   *ri = eraAnp(w);

}
