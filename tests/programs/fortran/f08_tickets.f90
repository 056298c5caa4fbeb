! f08_tickets: the ticket counter of f_tickets from `use mpi_f08` (tickets_body.inc), where a
! window is a TYPE(MPI_Win) and MPI_Win_allocate's baseptr a TYPE(C_PTR).
program f08_tickets
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  use fcommon
  implicit none
  type(MPI_Win) :: win

  include 'tickets_body.inc'
end program
