! f_noinit: a `use mpi` program that never initialises MPI (it only asks MPI_Initialized), so
! no rank can write a log: `mpirr record` must fail and say why (tests/integration/fortran_nolog.sh).
program f_noinit
  use mpi
  implicit none
  integer :: ierr
  logical :: flag
  call MPI_Initialized(flag, ierr)
  if (flag) error stop 1
end program
