! f_generated: calls of generated rows (mpi_calls_generated.def) and nonblocking collectives
! from `use mpi` (issue 32), their body in generated_body.inc; on Open MPI only the runtime's
! generated Fortran bindings make them events. Argument 1: the file the MPI-IO calls write.
program f_generated
  use mpi
  use fcommon
  implicit none
  integer :: cart, dupcomm, fh, req, info, pair
  integer :: status(MPI_STATUS_SIZE)

  include 'generated_body.inc'
end program
