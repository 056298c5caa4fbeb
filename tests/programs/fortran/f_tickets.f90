! f_tickets: a load-balancing ticket counter in one-sided MPI from `use mpi` (issue 32; the
! Fortran side of ../../integration/rma_tickets.c), its body in tickets_body.inc. Its
! MPI_Win_allocate with a TYPE(C_PTR) baseptr is `use mpi`'s MPI_Win_allocate_cptr.
program f_tickets
  use mpi
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  use fcommon
  implicit none
  integer :: win

  include 'tickets_body.inc'
end program
