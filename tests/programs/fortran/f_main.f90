! f_main: a Fortran main (MPI_Init, MPI_Finalize and the digest in Fortran) whose wildcard
! receives are made by a C function (c_exchange in c_exchange.c). argv(1): rounds.
program f_main
  use mpi
  use fcommon
  implicit none
  interface
    subroutine c_exchange(rounds, dig) bind(C, name="c_exchange")
      use, intrinsic :: iso_c_binding, only: c_int, c_int64_t
      integer(c_int), value :: rounds
      integer(c_int64_t), intent(out) :: dig
    end subroutine
  end interface
  integer :: ierr, rank, nranks, rounds

  call MPI_Init(ierr)
  call ok(ierr, 'MPI_Init')
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  rounds = rounds_arg(3 * nranks)
  call c_exchange(rounds, digest)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) call print_digest()
  call MPI_Finalize(ierr)
end program
