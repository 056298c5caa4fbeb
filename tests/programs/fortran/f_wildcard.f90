! f_wildcard: a `use mpi` program with nondeterministic outcomes, all from Fortran: the
! sources matched by MPI_ANY_SOURCE receives (MPI_Recv with a status and with
! MPI_STATUS_IGNORE), the number of unsuccessful MPI_Test calls polling a wildcard MPI_Irecv,
! and which sender lands in which buffer of wildcard MPI_Irecvs completed by MPI_Waitall with
! MPI_STATUSES_IGNORE. Rank 0 receives; the others send with uneven work in between. Last,
! every rank MPI_Bsends to itself and checks the size MPI_Buffer_detach gives back.
! argv(1): rounds (default 3 * ranks).
program f_wildcard
  use mpi
  use fcommon
  implicit none
  integer, parameter :: TAG_RECV = 71, TAG_TEST = 72, TAG_ALL = 73, TAG_IGN = 74
  integer, parameter :: TAG_BSEND = 75, BSIZE = 4096
  integer :: ierr, rank, nranks, round, rounds, k, nfail, req, dsize
  integer :: bbuf(BSIZE / 4)
  integer :: st(MPI_STATUS_SIZE), msg(2)
  integer, allocatable :: bufs(:, :), reqs(:)
  logical :: flag

  call MPI_Init(ierr)
  call ok(ierr, 'MPI_Init')
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  rounds = rounds_arg(3 * nranks)
  allocate(bufs(2, nranks), reqs(nranks))

  do round = 1, rounds
    ! no sender runs a round ahead: what rank 0 matches belongs to this round
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank /= 0) then
      do k = 0, 3
        call spin(round * 4 + k, rank)
        msg = (/ rank, round /)
        call MPI_Send(msg, 2, MPI_INTEGER, 0, TAG_RECV + k, MPI_COMM_WORLD, ierr)
        call ok(ierr, 'MPI_Send')
      end do
      cycle
    end if
    do k = 1, nranks - 1 ! MPI_Recv from anyone, with a status
      call MPI_Recv(msg, 2, MPI_INTEGER, MPI_ANY_SOURCE, TAG_RECV, MPI_COMM_WORLD, st, ierr)
      call ok(ierr, 'MPI_Recv')
      if (msg(1) /= st(MPI_SOURCE) .or. msg(2) /= round .or. st(MPI_TAG) /= TAG_RECV) &
        call ok(-1, 'MPI_Recv status')
      call fold(st(MPI_SOURCE))
    end do
    do k = 1, nranks - 1 ! a wildcard MPI_Irecv polled with MPI_Test
      call MPI_Irecv(msg, 2, MPI_INTEGER, MPI_ANY_SOURCE, TAG_TEST, MPI_COMM_WORLD, req, ierr)
      nfail = 0
      do
        call MPI_Test(req, flag, st, ierr)
        call ok(ierr, 'MPI_Test')
        if (flag) exit
        nfail = nfail + 1
        call spin(nfail, 3)
      end do
      if (req /= MPI_REQUEST_NULL .or. msg(1) /= st(MPI_SOURCE)) call ok(-1, 'MPI_Test result')
      call fold(nfail)
      call fold(st(MPI_SOURCE))
    end do
    do k = 1, nranks - 1 ! wildcard MPI_Irecvs, MPI_Waitall ignoring the statuses
      call MPI_Irecv(bufs(1, k), 2, MPI_INTEGER, MPI_ANY_SOURCE, TAG_ALL, MPI_COMM_WORLD, &
                     reqs(k), ierr)
    end do
    call MPI_Waitall(nranks - 1, reqs, MPI_STATUSES_IGNORE, ierr)
    call ok(ierr, 'MPI_Waitall')
    do k = 1, nranks - 1
      if (reqs(k) /= MPI_REQUEST_NULL .or. bufs(2, k) /= round) call ok(-1, 'MPI_Waitall result')
      call fold(bufs(1, k))
    end do
    do k = 1, nranks - 1 ! MPI_Recv ignoring the status: the payload names the sender
      call MPI_Recv(msg, 2, MPI_INTEGER, MPI_ANY_SOURCE, TAG_IGN, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierr)
      call ok(ierr, 'MPI_Recv ignoring the status')
      call fold(msg(1))
    end do
  end do
  ! the size attached comes back (races mode attaches a larger buffer in the program's place)
  call MPI_Buffer_attach(bbuf, BSIZE, ierr)
  call ok(ierr, 'MPI_Buffer_attach')
  msg = (/ rank, rounds /)
  call MPI_Bsend(msg, 2, MPI_INTEGER, rank, TAG_BSEND, MPI_COMM_WORLD, ierr)
  call ok(ierr, 'MPI_Bsend')
  call MPI_Recv(msg, 2, MPI_INTEGER, rank, TAG_BSEND, MPI_COMM_WORLD, st, ierr)
  call ok(ierr, 'MPI_Recv of the MPI_Bsend')
  if (msg(1) /= rank .or. msg(2) /= rounds) call ok(-1, 'MPI_Bsend data')
  call MPI_Buffer_detach(bbuf, dsize, ierr)
  call ok(ierr, 'MPI_Buffer_detach')
  if (dsize /= BSIZE) call ok(-1, 'MPI_Buffer_detach size')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) call print_digest()
  call MPI_Finalize(ierr)
end program
