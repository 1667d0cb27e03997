! SPDX-License-Identifier: GPL-2.0-or-later
!
! advice_rowcol_f: Fortran is column-major: m(i,j) and m(i+1,j) are
! adjacent, m(i,j+1) is a column (the leading dimension, 500 doubles,
! 4,000 bytes) further.  m is 500 x 500 doubles (2 MB), a module
! variable (the global __rowcol_MOD_m).  Test geometry: L1 32 KiB (512
! lines), L2 1 MiB, no L3.  At -O0 one load of m per iteration.
! - Line 35, j outermost and i innermost: the good order, stride 8 B,
!   no stride advice; its 31,250 L1 misses are m's first touches.
! - Line 40, i outermost and j innermost: the inner loop steps 4,000 B
!   (499 of each row's 500 strides); between m(i,j) and m(i+1,j), one
!   line, the walk touches the row's 500 lines and nothing else that
!   stays, so with the loop's own stack traffic every one of its
!   250,000 accesses misses the L1 (capacity): the leading dimension's
!   stride.  Its access formula is 4000*i1 + 8*i2: the loop around it
!   (i, line 38) steps 8 B: loop-interchange on m at line 40.
! - No blocking: the 250,000 capacity misses are those of that walk.
! Expected advice: loop-interchange __rowcol_MOD_m at
! advice_rowcol_f.f90:40, and nothing else.
!
! stdout: 0 (m is zero).
module rowcol
   implicit none
   integer, parameter :: n = 600
   double precision :: m(n, n)
end module rowcol

program advice_rowcol_f
   use rowcol
   implicit none
   integer :: i, j
   double precision :: s = 0
   do j = 1, n
      do i = 1, n
         s = s + m(i, j)
      end do
   end do
   do i = 1, n
      do j = 1, n
         s = s + m(i, j)
      end do
   end do
   print '(F3.0)', s
end program advice_rowcol_f
