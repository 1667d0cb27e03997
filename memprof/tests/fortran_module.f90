! SPDX-License-Identifier: GPL-2.0-or-later
!
! fortran_module: a module's fixed-size array and allocatable array.
!
! fixed (double precision, 100 elements, in module mymod): a global whose
!   name is the one of the symbol table, gfortran's mangled
!   __mymod_MOD_fixed (nm shows "B __mymod_MOD_fixed").  Written once per
!   element at line 36: writes 100, write_bytes 800, size 800,
!   reads 0.  (Its alignment is not controlled: lines not asserted.)
! dyn (allocatable, allocate(dyn(200)) at line 34): a heap
!   variable named from the ALLOCATE statement, where
!   fortran_module.f90:34, blocks 1, alloc_bytes = size = 1600.
!   Line 39 writes dyn(1..200): writes 200, write_bytes 1600;
!   line 43 reads dyn(1..200): reads 200, read_bytes 1600.
! objdump -d at -O0 (gfortran 12): one movsd per element access; the
! loop counter i and s are in MAIN__'s frame.  Each dyn(i) also reads
! the array descriptor (the global __mymod_MOD_dyn: base address and
! offset), which is not asserted here (it depends on gfortran's code).
!
! stdout: s = sum(2 * i, i = 1..200) = 200 * 201 = 40200.
module mymod
   implicit none
   integer, parameter :: nfixed = 100
   double precision :: fixed(nfixed)
   double precision, allocatable :: dyn(:)
end module mymod

program fortran_module
   use mymod
   implicit none
   integer :: i
   double precision :: s

   allocate(dyn(200))
   do i = 1, nfixed
      fixed(i) = i
   end do
   do i = 1, 200
      dyn(i) = 2 * i
   end do
   s = 0
   do i = 1, 200
      s = s + dyn(i)
   end do
   print '(a,f10.1)', 'sum', s
   deallocate(dyn)
end program fortran_module
