! f_file_shared: the Fortran side of ../../integration/file_shared.c, from `use mpi`: every rank
! appends WRITES lines to one file (argument 1) with MPI_File_write_shared, whose order mpirr
! does not replay; rank 0 prints `wrote`. Calls nothing else nondeterministic.
program f_file_shared
  use mpi
  use fcommon
  implicit none
  integer, parameter :: WRITES = 2
  integer :: ierr, rank, fh, i
  character(len=4096) :: path
  character(len=16) :: line

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (command_argument_count() < 1) call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
  call get_command_argument(1, path)
  call MPI_File_open(MPI_COMM_WORLD, trim(path), MPI_MODE_CREATE + MPI_MODE_WRONLY, &
                     MPI_INFO_NULL, fh, ierr)
  call ok(ierr, 'MPI_File_open')
  write(line, '(A, I0, A)') 'rank ', rank, achar(10)
  do i = 1, WRITES
    call MPI_File_write_shared(fh, line, len_trim(line), MPI_CHARACTER, MPI_STATUS_IGNORE, ierr)
    call ok(ierr, 'MPI_File_write_shared')
  end do
  call MPI_File_close(fh, ierr)
  call ok(ierr, 'MPI_File_close')
  if (rank == 0) print '(A)', 'wrote'
  call MPI_Finalize(ierr)
end program
