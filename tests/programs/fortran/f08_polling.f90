! f08_polling: `use mpi_f08` calls whose MPICH entries call PMPI_* directly (no choice buffer:
! src/runtime/fortran_mpich_f08.c), with nondeterministic outcomes. Each round every other rank
! sends rank 0 three messages with uneven work in between, one of them with MPI_Isend +
! MPI_Wait; rank 0 takes the first with wildcard MPI_Irecv's completed by MPI_Testsome polling
! (how many polls, which indices, in which order), the second by a blocking wildcard MPI_Probe
! and a receive from the sender it found, the third with a persistent wildcard receive
! (MPI_Recv_init once, MPI_Start + MPI_Wait). MPI_Wtime before and after (their values folded
! in: they differ from run to run). Every outcome goes into the digest rank 0 prints. Each rank
! counts its own MPI_Comm_rank and MPI_Wait calls; rank 0 prints the sums (`calls
! MPI_Comm_rank N MPI_Wait M`), which the event history must show exactly (each call counted
! once: fortran_f08_counts.sh). argv(1): rounds (default 3 * ranks).
program f08_polling
  use mpi_f08
  use fcommon
  implicit none
  integer, parameter :: TAG_SOME = 91, TAG_PROBE = 92, TAG_PERS = 93
  integer :: ierr, rank, nranks, round, rounds, k, j, nfail, outcount, got, base, ibase = -1
  integer :: ncomm_rank, nwait, counts(2), sums(2)
  integer :: msg(2), pmsg(2)
  integer, allocatable :: bufs(:, :), indices(:)
  type(MPI_Request), allocatable :: reqs(:)
  logical, allocatable :: done(:)
  type(MPI_Request) :: preq, sreq
  type(MPI_Status) :: st
  type(MPI_Status), allocatable :: sts(:)
  double precision :: t0, t1

  call MPI_Init(ierr)
  call ok(ierr, 'MPI_Init')
  t0 = MPI_Wtime()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call ok(ierr, 'MPI_Comm_rank')
  call MPI_Comm_rank(MPI_COMM_WORLD, k) ! ierror omitted
  if (k /= rank) call ok(-1, 'MPI_Comm_rank without ierror')
  ncomm_rank = 2
  nwait = 0
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  rounds = rounds_arg(3 * nranks)
  allocate(bufs(2, nranks), reqs(nranks), indices(nranks), sts(nranks), done(nranks))
  if (rank == 0) then
    call MPI_Recv_init(pmsg, 2, MPI_INTEGER, MPI_ANY_SOURCE, TAG_PERS, MPI_COMM_WORLD, preq, ierr)
    call ok(ierr, 'MPI_Recv_init')
  end if

  do round = 1, rounds
    call MPI_Barrier(MPI_COMM_WORLD, ierr) ! what rank 0 matches belongs to this round
    call ok(ierr, 'MPI_Barrier')
    if (rank /= 0) then
      msg = (/ rank, round /)
      call spin(round * 3, rank)
      call MPI_Send(msg, 2, MPI_INTEGER, 0, TAG_SOME, MPI_COMM_WORLD, ierr)
      call spin(round * 3 + 1, rank)
      call MPI_Send(msg, 2, MPI_INTEGER, 0, TAG_PROBE, MPI_COMM_WORLD, ierr)
      call spin(round * 3 + 2, rank)
      call MPI_Isend(msg, 2, MPI_INTEGER, 0, TAG_PERS, MPI_COMM_WORLD, sreq, ierr)
      call MPI_Wait(sreq, MPI_STATUS_IGNORE, ierr)
      call ok(ierr, 'MPI_Wait (send)')
      nwait = nwait + 1
      if (sreq /= MPI_REQUEST_NULL) call ok(-1, 'MPI_Wait: the request is not MPI_REQUEST_NULL')
      cycle
    end if
    ! Testsome polling over wildcard receives
    do k = 1, nranks - 1
      call MPI_Irecv(bufs(1, k), 2, MPI_INTEGER, MPI_ANY_SOURCE, TAG_SOME, MPI_COMM_WORLD, reqs(k))
    end do
    got = 0
    nfail = 0
    done = .false.
    do while (got < nranks - 1)
      call MPI_Testsome(nranks - 1, reqs, outcount, indices, sts, ierr)
      call ok(ierr, 'MPI_Testsome')
      if (outcount == 0) then
        nfail = nfail + 1
        call spin(nfail, 3)
        cycle
      end if
      if (outcount < 1 .or. outcount > nranks - 1 - got) call ok(-1, 'MPI_Testsome outcount')
      ! the indices name exactly the receives it completed (now null): counted from 1, or from
      ! 0 by MPICH 4.0's own mpi_f08 binding (which mpirr's replaces: printed below)
      base = index_base(indices(1:outcount), reqs(1:nranks - 1), done(1:nranks - 1))
      if (ibase /= -1 .and. base /= ibase) call ok(-1, 'MPI_Testsome: indices from 0 and from 1')
      ibase = base
      do j = 1, outcount ! each names a completed receive and its status
        k = indices(j) + 1 - base
        if (bufs(1, k) /= sts(j)%MPI_SOURCE .or. bufs(2, k) /= round) call ok(-1, 'MPI_Testsome status')
        done(k) = .true.
        call fold(k)
        call fold(sts(j)%MPI_SOURCE)
      end do
      got = got + outcount
    end do
    call fold(nfail)
    ! a blocking wildcard probe, then exactly the message it found
    do k = 1, nranks - 1
      call MPI_Probe(MPI_ANY_SOURCE, TAG_PROBE, MPI_COMM_WORLD, st, ierr)
      call ok(ierr, 'MPI_Probe')
      call MPI_Recv(msg, 2, MPI_INTEGER, st%MPI_SOURCE, TAG_PROBE, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
      if (msg(1) /= st%MPI_SOURCE .or. msg(2) /= round) call ok(-1, 'MPI_Probe status')
      call fold(msg(1))
    end do
    ! the persistent wildcard receive, once per sender
    do k = 1, nranks - 1
      call MPI_Start(preq, ierr)
      call ok(ierr, 'MPI_Start')
      call MPI_Wait(preq, st, ierr)
      call ok(ierr, 'MPI_Wait (persistent)')
      nwait = nwait + 1
      if (pmsg(1) /= st%MPI_SOURCE .or. st%MPI_TAG /= TAG_PERS) call ok(-1, 'MPI_Wait status')
      if (preq == MPI_REQUEST_NULL) call ok(-1, 'MPI_Wait freed the persistent request')
      call fold(pmsg(1))
    end do
  end do

  if (rank == 0) then
    call MPI_Request_free(preq, ierr)
    call ok(ierr, 'MPI_Request_free')
  end if
  t1 = MPI_Wtime()
  if (t1 < t0) call ok(-1, 'MPI_Wtime went back')
  call fold(int(mod((t1 - t0) * 1d6, 1d9)))
  counts = (/ ncomm_rank, nwait /)
  call MPI_Reduce(counts, sums, 2, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  call ok(ierr, 'MPI_Reduce')
  if (rank == 0) then
    call print_digest()
    write(*, '(A, I0, A, I0)') 'calls MPI_Comm_rank ', sums(1), ' MPI_Wait ', sums(2)
    write(*, '(A, I0)') 'testsome indices count from ', ibase
  end if
  call MPI_Finalize(ierr)

contains
  ! 1 if idx are the (1-based) indices of exactly the requests newly null (null, not done), 0 if
  ! idx + 1 are; anything else breaks an invariant
  integer function index_base(idx, reqs, done)
    integer, intent(in) :: idx(:)
    type(MPI_Request), intent(in) :: reqs(:)
    logical, intent(in) :: done(:)
    logical :: fresh(size(reqs))
    integer :: b, i
    fresh = .false.
    do i = 1, size(reqs)
      fresh(i) = reqs(i) == MPI_REQUEST_NULL .and. .not. done(i)
    end do
    do b = 1, 0, -1
      index_base = b
      if (count(fresh) /= size(idx)) exit
      if (all(idx + 1 - b >= 1 .and. idx + 1 - b <= size(reqs))) then
        if (all(fresh(idx + 1 - b))) return
      end if
    end do
    call ok(-1, 'MPI_Testsome indices')
  end function
end program
