! f_forwarded: the calls whose Open MPI Fortran entry points are forwarded (issue 32), from
! `use mpi`, their body in forwarded_body.inc; here the Fortran callbacks they register.
module fwd_callbacks
  ! only these: MPICH's mpi module would be reached twice, its names ambiguous
  use mpi, only: MPI_ADDRESS_KIND, MPI_SUCCESS, MPI_ERR_OTHER
  implicit none
  integer, save :: copies = 0, errors_seen = 0
contains
  subroutine copy_fn(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierr)
    integer :: oldcomm
    include 'forwarded_copy.inc'
  end subroutine

  subroutine err_fn(comm, code)
    integer :: comm, code
    if (code == MPI_ERR_OTHER) errors_seen = errors_seen + 1
  end subroutine

  subroutine plus1000(invec, inoutvec, len, datatype)
    integer :: len, datatype
    integer :: invec(len), inoutvec(len)
    inoutvec = invec + inoutvec + 1000
  end subroutine
end module

program f_forwarded
  use mpi
  use fcommon
  use fwd_callbacks
  implicit none
  integer :: dupcomm, graph, errh, op

  include 'forwarded_body.inc'
end program
