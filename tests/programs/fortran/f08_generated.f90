! f08_generated: the calls of f_generated from `use mpi_f08` (generated_body.inc), where the
! handles are TYPE(MPI_Comm), TYPE(MPI_File), ... and a status a TYPE(MPI_Status).
program f08_generated
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  use fcommon
  implicit none
  logical, parameter :: F08 = .true.
  type(MPI_Comm) :: cart, dupcomm
  type(MPI_Group) :: wgroup, evens
  type(MPI_File) :: fh
  type(MPI_Request) :: req
  type(MPI_Info) :: info
  type(MPI_Datatype) :: pair
  type(MPI_Status) :: status

  include 'generated_body.inc'
end program
