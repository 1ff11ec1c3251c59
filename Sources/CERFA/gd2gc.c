/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"
#include "erfam.h"

int eraGd2gc ( int n, double elong, double phi, double height,
               double xyz[3] )

{
   int j;
   double a, f;

   j = eraEform ( n, &a, &f );

   if ( j == 0 ) {
      j = eraGd2gce ( a, f, elong, phi, height, xyz );
      if ( j != 0 ) j = -2;
   }

   if ( j != 0 ) eraZp ( xyz );

   return j;

}
