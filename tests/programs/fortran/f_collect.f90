! f_collect.f90: the Fortran half of c_main: one round of rank 0's wildcard receives, called
! from C. The sources matched and the unsuccessful MPI_Test calls are folded into digest.
subroutine f_collect(round, nranks, digest) bind(C, name="f_collect")
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t
  use mpi
  implicit none
  integer(c_int), intent(in) :: round, nranks
  integer(c_int64_t), intent(inout) :: digest
  integer :: ierr, k, req, nfail, i, st(MPI_STATUS_SIZE), msg(2)
  logical :: flag
  real(8), save :: sink = 0

  do k = 1, nranks - 1
    call MPI_Recv(msg, 2, MPI_INTEGER, MPI_ANY_SOURCE, 91, MPI_COMM_WORLD, st, ierr)
    if (ierr /= MPI_SUCCESS .or. msg(1) /= st(MPI_SOURCE) .or. msg(2) /= round) error stop 1
    digest = mod(digest * 65599_8 + st(MPI_SOURCE) + 12345_8, 2147483629_8)
  end do
  do k = 1, nranks - 1
    call MPI_Irecv(msg, 2, MPI_INTEGER, MPI_ANY_SOURCE, 92, MPI_COMM_WORLD, req, ierr)
    nfail = 0
    do
      call MPI_Test(req, flag, st, ierr)
      if (ierr /= MPI_SUCCESS) error stop 1
      if (flag) exit
      nfail = nfail + 1
      do i = 1, 2000
        sink = sink * 0.999999d0 + 1d-9
      end do
    end do
    digest = mod(digest * 65599_8 + nfail * 16 + st(MPI_SOURCE) + 12345_8, 2147483629_8)
  end do
  if (sink < 0) print *, sink
end subroutine
