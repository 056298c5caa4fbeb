! f08_forwarded: the calls of f_forwarded from `use mpi_f08` (forwarded_body.inc), with the
! callbacks in the forms of mpi_f08's abstract interfaces.
module fwd08_callbacks
  use mpi_f08
  implicit none
  integer, save :: copies = 0, errors_seen = 0
contains
  subroutine copy_fn(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierr)
    type(MPI_Comm) :: oldcomm
    include 'forwarded_copy.inc'
  end subroutine

  subroutine err_fn(comm, code)
    type(MPI_Comm) :: comm
    integer :: code
    if (code == MPI_ERR_OTHER) errors_seen = errors_seen + 1
  end subroutine

  subroutine plus1000(invec, inoutvec, len, datatype)
    use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = a + b + 1000
  end subroutine
end module

program f08_forwarded
  use mpi_f08
  use fcommon
  use fwd08_callbacks
  implicit none
  type(MPI_Comm) :: dupcomm, graph
  type(MPI_Errhandler) :: errh
  type(MPI_Op) :: op

  include 'forwarded_body.inc'
end program
