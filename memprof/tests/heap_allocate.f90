! SPDX-License-Identifier: GPL-2.0-or-later
!
! heap_allocate: one ALLOCATE statement of three arrays makes three
! sites on one line, named after its objects in order (gfortran calls
! malloc once per object, in the order written):
!   a: 100 reals(8), 800 bytes, written 100 times (line 18)
!   b: 200 reals(8), 1600 bytes, written 200 times (line 21)
!   c: 300 reals(8), 2400 bytes, written 300 times (line 24)
! each one block at heap_allocate.f90:16.  (-O0: one store per element.)
!
! stdout: the three sums, 100 400 900.
program heap_allocate
  implicit none
  real(8), allocatable :: a(:), b(:), c(:)
  integer :: i
  allocate(a(100), b(200), c(300))
  do i = 1, 100
    a(i) = 1.0d0
  end do
  do i = 1, 200
    b(i) = 2.0d0
  end do
  do i = 1, 300
    c(i) = 3.0d0
  end do
  print '(3I5)', int(sum(a)), int(sum(b)), int(sum(c))
  deallocate(a, b, c)
end program heap_allocate
