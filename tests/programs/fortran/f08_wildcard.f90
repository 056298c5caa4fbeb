! f08_wildcard: the `use mpi_f08` bindings with nondeterministic outcomes: wildcard MPI_Recv
! (status and MPI_STATUS_IGNORE), MPI_Iprobe polling for any sender, the index MPI_Waitany
! picks among wildcard receives, and MPI_Waitall with MPI_STATUSES_IGNORE; a CHARACTER result
! (MPI_Get_library_version). Some calls omit the optional ierror. Rank 0 receives; the others send with uneven work in between.
! argv(1): rounds (default 3 * ranks).
program f08_wildcard
  use mpi_f08
  use fcommon
  implicit none
  integer, parameter :: TAG_RECV = 81, TAG_PROBE = 82, TAG_ANY = 83, TAG_ALL = 84
  integer :: ierr, rank, nranks, round, rounds, k, j, nfail, idx, vlen
  logical :: mpich
  logical, allocatable :: done(:)
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version
  integer :: msg(2)
  integer, allocatable :: bufs(:, :)
  type(MPI_Status) :: st
  type(MPI_Request), allocatable :: reqs(:)
  logical :: flag

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call ok(ierr, 'MPI_Comm_size')
  rounds = rounds_arg(3 * nranks)
  allocate(bufs(2, nranks), reqs(nranks), done(nranks))
  call MPI_Get_library_version(version, vlen, ierr)
  call ok(ierr, 'MPI_Get_library_version')
  if (vlen < 5 .or. vlen > len(version)) call ok(-1, 'MPI_Get_library_version length')
  if (vlen < len(version)) then
    if (version(vlen + 1:) /= ' ') call ok(-1, 'MPI_Get_library_version padding')
  end if
  mpich = version(1:5) == 'MPICH'

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
    do k = 1, nranks - 1
      call MPI_Recv(msg, 2, MPI_INTEGER, MPI_ANY_SOURCE, TAG_RECV, MPI_COMM_WORLD, st, ierr)
      call ok(ierr, 'MPI_Recv')
      if (msg(1) /= st%MPI_SOURCE .or. msg(2) /= round) call ok(-1, 'MPI_Recv status')
      call fold(st%MPI_SOURCE)
    end do
    do k = 1, nranks - 1 ! poll for any sender, then receive exactly that message
      nfail = 0
      do
        call MPI_Iprobe(MPI_ANY_SOURCE, TAG_PROBE, MPI_COMM_WORLD, flag, st, ierr)
        call ok(ierr, 'MPI_Iprobe')
        if (flag) exit
        nfail = nfail + 1
        call spin(nfail, 5)
      end do
      call MPI_Recv(msg, 2, MPI_INTEGER, st%MPI_SOURCE, TAG_PROBE, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE)
      if (msg(1) /= st%MPI_SOURCE) call ok(-1, 'MPI_Iprobe status')
      call fold(nfail)
      call fold(msg(1))
    end do
    do k = 1, nranks - 1
      call MPI_Irecv(bufs(1, k), 2, MPI_INTEGER, MPI_ANY_SOURCE, TAG_ANY, MPI_COMM_WORLD, reqs(k))
    end do
    done = .false.
    do k = 1, nranks - 1 ! which receive completes first
      call MPI_Waitany(nranks - 1, reqs, idx, st, ierr)
      call ok(ierr, 'MPI_Waitany')
      ! the request it completed is the one now null (MPICH 4.0's own mpi_f08 MPI_Waitany
      ! returns that index counted from 0, mpirr's from 1: fortran_f08_counts.sh checks the
      ! like for MPI_Testsome)
      do j = 1, nranks - 1
        if (.not. done(j) .and. reqs(j) == MPI_REQUEST_NULL) exit
      end do
      if (j > nranks - 1 .or. bufs(1, j) /= st%MPI_SOURCE) call ok(-1, 'MPI_Waitany request')
      if (idx /= j .and. .not. mpich) call ok(-1, 'MPI_Waitany index')
      done(j) = .true.
      call fold(j)
      call fold(st%MPI_SOURCE)
    end do
    do k = 1, nranks - 1
      call MPI_Irecv(bufs(1, k), 2, MPI_INTEGER, MPI_ANY_SOURCE, TAG_ALL, MPI_COMM_WORLD, reqs(k))
    end do
    call MPI_Waitall(nranks - 1, reqs, MPI_STATUSES_IGNORE, ierr)
    call ok(ierr, 'MPI_Waitall')
    do k = 1, nranks - 1
      if (reqs(k) /= MPI_REQUEST_NULL) call ok(-1, 'MPI_Waitall requests')
      call fold(bufs(1, k))
    end do
  end do
  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) call print_digest()
  call MPI_Finalize()
end program
