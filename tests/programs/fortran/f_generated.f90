! f_generated: calls of generated rows (mpi_calls_generated.def) and nonblocking collectives
! from `use mpi` (issue 32), their body in generated_body.inc; on Open MPI the runtime's
! generated Fortran bindings make them events (MPICH's call the C functions). Argument 1: the file the MPI-IO calls write.
program f_generated
  use mpi
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  use fcommon
  implicit none
  logical, parameter :: F08 = .false.
  integer :: cart, dupcomm, fh, req, info, pair, wgroup, evens
  integer :: status(MPI_STATUS_SIZE)

  include 'generated_body.inc'
end program
