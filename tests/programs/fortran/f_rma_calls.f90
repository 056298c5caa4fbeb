! f_rma_calls: every one-sided call of the table from `use mpi` (issue 32), each checked for its
! result, so that the runtime's Fortran bindings (Open MPI) are proven to pass every argument
! right: windows from MPI_Win_create, MPI_Win_allocate_shared (baseptr an
! INTEGER(MPI_ADDRESS_KIND)) with MPI_Win_shared_query (baseptr a TYPE(C_PTR)) and
! MPI_Win_create_dynamic with attach/detach; fence, post/start/complete/wait and MPI_Win_test,
! lock/unlock, lock_all/unlock_all, the flushes and sync; Put, Get, Accumulate, Get_accumulate,
! Fetch_and_op, Compare_and_swap and their request-based forms. Rank 0 prints `done <digest>`.
program f_rma_calls
  use mpi
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer, c_null_ptr
  use fcommon
  implicit none
  integer :: ierr, rank, nranks, left, right, win, swin, dwin, grp, req, i
  integer :: one, cmp, disp_unit
  logical :: flag
  ! written behind the compiler's back by one-sided calls and epochs that do not name them
  integer, volatile :: tmp, res
  integer, target, volatile :: buf(4)
  integer, target :: dyn(2)
  integer(kind=MPI_ADDRESS_KIND) :: size, disp, addr, qsize
  type(c_ptr) :: qbase
  integer, pointer, volatile :: mine, theirs

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  left = mod(rank + nranks - 1, nranks)
  right = mod(rank + 1, nranks)
  one = 1

  ! shared memory: every rank reads its right neighbour's integer through the query's pointer
  size = 4
  call MPI_Win_allocate_shared(size, 4, MPI_INFO_NULL, MPI_COMM_WORLD, addr, swin, ierr)
  call ok(ierr, 'MPI_Win_allocate_shared')
  call c_f_pointer(transfer(addr, c_null_ptr), mine)
  call MPI_Win_lock_all(0, swin, ierr)
  call ok(ierr, 'MPI_Win_lock_all')
  mine = 100 + rank
  call MPI_Win_sync(swin, ierr)
  call ok(ierr, 'MPI_Win_sync')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Win_sync(swin, ierr)
  call MPI_Win_shared_query(swin, right, qsize, disp_unit, qbase, ierr)
  call ok(ierr, 'MPI_Win_shared_query')
  if (qsize /= 4 .or. disp_unit /= 4) call ok(-1, 'MPI_Win_shared_query size or disp_unit')
  call c_f_pointer(qbase, theirs)
  if (theirs /= 100 + right) call ok(-1, 'MPI_Win_shared_query baseptr')
  call MPI_Win_unlock_all(swin, ierr)
  call ok(ierr, 'MPI_Win_unlock_all')
  call MPI_Win_free(swin, ierr)
  call ok(ierr, 'MPI_Win_free (shared)')

  buf = 0
  size = 16
  call MPI_Win_create(buf, size, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call ok(ierr, 'MPI_Win_create')

  ! fence epochs: Put to the right, Get from the right, Accumulate on rank 0
  call MPI_Win_fence(0, win, ierr)
  call ok(ierr, 'MPI_Win_fence')
  disp = 0
  call MPI_Put(rank, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, ierr)
  call ok(ierr, 'MPI_Put')
  call MPI_Win_fence(0, win, ierr)
  if (buf(1) /= left) call ok(-1, 'MPI_Put: value')
  call MPI_Get(tmp, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, ierr)
  call ok(ierr, 'MPI_Get')
  disp = 1
  call MPI_Accumulate(one, 1, MPI_INTEGER, 0, disp, 1, MPI_INTEGER, MPI_SUM, win, ierr)
  call ok(ierr, 'MPI_Accumulate')
  call MPI_Win_fence(0, win, ierr)
  if (tmp /= rank) call ok(-1, 'MPI_Get: value')
  if (rank == 0 .and. buf(2) /= nranks) call ok(-1, 'MPI_Accumulate: value')
  call fold(buf(1))

  ! post/start/complete/wait, then the same completed by polling MPI_Win_test
  call MPI_Win_get_group(win, grp, ierr)
  call ok(ierr, 'MPI_Win_get_group')
  disp = 2
  do i = 1, 2
    call MPI_Win_post(grp, 0, win, ierr)
    call ok(ierr, 'MPI_Win_post')
    call MPI_Win_start(grp, 0, win, ierr)
    call ok(ierr, 'MPI_Win_start')
    tmp = 10 * i + rank
    call MPI_Put(tmp, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, ierr)
    call MPI_Win_complete(win, ierr)
    call ok(ierr, 'MPI_Win_complete')
    if (i == 1) then
      call MPI_Win_wait(win, ierr)
      call ok(ierr, 'MPI_Win_wait')
    else
      tmp = 0 ! failed polls, with work in between: each is an event to replay
      do
        call MPI_Win_test(win, flag, ierr)
        call ok(ierr, 'MPI_Win_test')
        if (flag) exit
        tmp = tmp + 1
        call spin(tmp, 5)
      end do
    end if
    if (buf(3) /= 10 * i + left) call ok(-1, 'post/start/complete: value')
  end do
  call MPI_Group_free(grp, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)

  ! passive target on rank 0's buf(4): atomics, then their request-based forms
  disp = 3
  call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win, ierr)
  call ok(ierr, 'MPI_Win_lock')
  call MPI_Get_accumulate(one, 1, MPI_INTEGER, res, 1, MPI_INTEGER, 0, disp, 1, MPI_INTEGER, &
                          MPI_SUM, win, ierr)
  call ok(ierr, 'MPI_Get_accumulate')
  call MPI_Win_flush(0, win, ierr)
  call ok(ierr, 'MPI_Win_flush')
  call MPI_Fetch_and_op(one, tmp, MPI_INTEGER, 0, disp, MPI_SUM, win, ierr)
  call ok(ierr, 'MPI_Fetch_and_op')
  call MPI_Win_flush_local(0, win, ierr)
  call ok(ierr, 'MPI_Win_flush_local')
  if (tmp /= res + 1) call ok(-1, 'MPI_Fetch_and_op after MPI_Get_accumulate: value')
  cmp = tmp + 1
  call MPI_Compare_and_swap(rank, cmp, res, MPI_INTEGER, 0, disp, win, ierr)
  call ok(ierr, 'MPI_Compare_and_swap')
  call MPI_Win_unlock(0, win, ierr)
  call ok(ierr, 'MPI_Win_unlock')
  if (res /= cmp) call ok(-1, 'MPI_Compare_and_swap: value')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)

  call MPI_Win_lock_all(0, win, ierr)
  disp = 0
  call MPI_Rput(rank, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, req, ierr)
  call ok(ierr, 'MPI_Rput')
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Win_flush_all(win, ierr)
  call ok(ierr, 'MPI_Win_flush_all')
  call MPI_Rget(tmp, 1, MPI_INTEGER, left, disp, 1, MPI_INTEGER, win, req, ierr)
  call ok(ierr, 'MPI_Rget')
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Win_flush_local_all(win, ierr)
  call ok(ierr, 'MPI_Win_flush_local_all')
  disp = 1
  call MPI_Raccumulate(one, 1, MPI_INTEGER, 0, disp, 1, MPI_INTEGER, MPI_SUM, win, req, ierr)
  call ok(ierr, 'MPI_Raccumulate')
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Rget_accumulate(one, 1, MPI_INTEGER, res, 1, MPI_INTEGER, 0, disp, 1, MPI_INTEGER, &
                           MPI_SUM, win, req, ierr)
  call ok(ierr, 'MPI_Rget_accumulate')
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Win_unlock_all(win, ierr)
  if (res < nranks + 1 .or. res > 3 * nranks) call ok(-1, 'MPI_Rget_accumulate: value')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  ! rank 0's buf(2): nranks from the fence epoch, then 2 from every rank
  if (rank == 0 .and. buf(2) /= 3 * nranks) call ok(-1, 'MPI_Raccumulate: value')
  call MPI_Win_free(win, ierr)
  call ok(ierr, 'MPI_Win_free')
  if (win /= MPI_WIN_NULL) call ok(-1, 'MPI_Win_free: not MPI_WIN_NULL')

  ! a dynamic window: attach and detach local memory
  call MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, dwin, ierr)
  call ok(ierr, 'MPI_Win_create_dynamic')
  size = 8
  call MPI_Win_attach(dwin, dyn, size, ierr)
  call ok(ierr, 'MPI_Win_attach')
  call MPI_Win_detach(dwin, dyn, ierr)
  call ok(ierr, 'MPI_Win_detach')
  call MPI_Win_free(dwin, ierr)

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) call print_digest()
  call MPI_Finalize(ierr)
end program
