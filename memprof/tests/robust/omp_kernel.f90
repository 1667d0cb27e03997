! SPDX-License-Identifier: GPL-2.0-or-later
!
! omp_kernel: an OpenMP stencil on integer arrays, for the robustness
! suite (run.py builds it with gfortran -O1 -fopenmp and runs it with
! OMP_NUM_THREADS=4).  Integer arithmetic makes the checksum exact
! whatever order the threads combine the reduction in, so the output is
! the same natively and under memprof.
program omp_kernel
  use omp_lib
  implicit none
  integer, parameter :: n = 100000, iters = 4
  integer(8), allocatable :: a(:), b(:)
  integer(8) :: s
  integer :: i, it

  allocate(a(n), b(n))
  !$omp parallel do schedule(static)
  do i = 1, n
     a(i) = mod(int(i, 8) * 7_8, 1009_8)
     b(i) = 0
  end do
  !$omp end parallel do
  do it = 1, iters
     !$omp parallel do schedule(static)
     do i = 2, n - 1
        b(i) = (a(i - 1) + 2 * a(i) + a(i + 1)) / 4 + it
     end do
     !$omp end parallel do
     !$omp parallel do schedule(static)
     do i = 2, n - 1
        a(i) = b(i)
     end do
     !$omp end parallel do
  end do
  s = 0
  !$omp parallel do schedule(static) reduction(+:s)
  do i = 1, n
     s = s + a(i) * mod(i, 13)
  end do
  !$omp end parallel do
  print '(a,i0)', 'checksum ', s
  print '(a,i0)', 'threads ', omp_get_max_threads()
end program omp_kernel
