! f08_tickets: the ticket counter of f_tickets from `use mpi_f08`, its window from
! MPI_Win_allocate (baseptr a TYPE(C_PTR), mpi_f08's only form); every rank takes TICKETS tickets, each with
! MPI_Win_lock(EXCLUSIVE) + MPI_Fetch_and_op(+1) + MPI_Win_unlock (some calls without the
! optional ierror). Rank 0 checks the counter at the end and prints one line per rank.
program f08_tickets
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  use fcommon
  implicit none
  integer, parameter :: TICKETS = 6
  integer :: ierr, rank, nranks, i, one
  integer :: got(TICKETS)
  integer, allocatable :: all(:, :)
  integer(kind=MPI_ADDRESS_KIND) :: size, disp
  type(c_ptr) :: base
  integer, pointer, volatile :: counter
  type(MPI_Win) :: win

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  size = 0
  if (rank == 0) size = 4
  call MPI_Win_allocate(size, 4, MPI_INFO_NULL, MPI_COMM_WORLD, base, win, ierr)
  call ok(ierr, 'MPI_Win_allocate')
  if (rank == 0) then
    call c_f_pointer(base, counter)
    call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win)
    counter = 0
    call MPI_Win_unlock(0, win)
  end if
  call MPI_Barrier(MPI_COMM_WORLD)

  one = 1
  disp = 0
  do i = 1, TICKETS
    call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win, ierr)
    call ok(ierr, 'MPI_Win_lock')
    call MPI_Fetch_and_op(one, got(i), MPI_INTEGER, 0, disp, MPI_SUM, win, ierr)
    call ok(ierr, 'MPI_Fetch_and_op')
    call MPI_Win_unlock(0, win)
    call spin(i * 13, rank + 1)
  end do

  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) then
    call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win)
    if (counter /= TICKETS * nranks) call ok(-1, 'the counter (baseptr) at the end')
    call MPI_Win_unlock(0, win)
  end if
  allocate(all(TICKETS, nranks))
  call MPI_Gather(got, TICKETS, MPI_INTEGER, all, TICKETS, MPI_INTEGER, 0, MPI_COMM_WORLD)
  if (rank == 0) call report_tickets(all, TICKETS, nranks)
  call MPI_Win_free(win, ierr)
  call ok(ierr, 'MPI_Win_free')
  if (win /= MPI_WIN_NULL) call ok(-1, 'MPI_Win_free: the window is not MPI_WIN_NULL')
  call MPI_Finalize()
end program
