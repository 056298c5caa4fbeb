! f_tickets: a load-balancing ticket counter in one-sided MPI from `use mpi` (issue 32; the
! Fortran side of ../../integration/rma_tickets.c). Rank 0 holds the counter in a window from
! MPI_Win_allocate (baseptr a TYPE(C_PTR): `use mpi`'s MPI_Win_allocate_cptr); every rank takes
! TICKETS tickets, each with MPI_Win_lock(EXCLUSIVE) + MPI_Fetch_and_op(+1) + MPI_Win_unlock;
! rank 0 gathers them, checks that the counter ends at their number, and prints one line per
! rank. Which rank gets which ticket is the order of the lock grants: it differs from run to run.
program f_tickets
  use mpi
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  use fcommon
  implicit none
  integer, parameter :: TICKETS = 6
  integer :: ierr, rank, nranks, win, i, one
  integer :: got(TICKETS)
  integer, allocatable :: all(:, :)
  integer(kind=MPI_ADDRESS_KIND) :: size, disp
  type(c_ptr) :: base
  integer, pointer, volatile :: counter

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  size = 0
  if (rank == 0) size = 4
  call MPI_Win_allocate(size, 4, MPI_INFO_NULL, MPI_COMM_WORLD, base, win, ierr)
  call ok(ierr, 'MPI_Win_allocate')
  if (rank == 0) then
    call c_f_pointer(base, counter)
    call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win, ierr)
    counter = 0
    call MPI_Win_unlock(0, win, ierr)
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr)

  one = 1
  disp = 0
  do i = 1, TICKETS
    call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win, ierr)
    call ok(ierr, 'MPI_Win_lock')
    call MPI_Fetch_and_op(one, got(i), MPI_INTEGER, 0, disp, MPI_SUM, win, ierr)
    call ok(ierr, 'MPI_Fetch_and_op')
    call MPI_Win_unlock(0, win, ierr)
    call ok(ierr, 'MPI_Win_unlock')
    call spin(i * 13, rank + 1)
  end do

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win, ierr)
    if (counter /= TICKETS * nranks) call ok(-1, 'the counter (baseptr) at the end')
    call MPI_Win_unlock(0, win, ierr)
  end if
  allocate(all(TICKETS, nranks))
  call MPI_Gather(got, TICKETS, MPI_INTEGER, all, TICKETS, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) call report_tickets(all, TICKETS, nranks)
  call MPI_Win_free(win, ierr)
  call ok(ierr, 'MPI_Win_free')
  if (win /= MPI_WIN_NULL) call ok(-1, 'MPI_Win_free: the window is not MPI_WIN_NULL')
  call MPI_Finalize(ierr)
end program
