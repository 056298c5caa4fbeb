! fcommon.f90: what the Fortran test programs share (the Fortran side of ../common.h): uneven
! deterministic CPU work between messages, so that timing noise reorders them (never a clock),
! and the digest every observed outcome is folded into; rank 0 prints `digest <hex>`; the
! ticket counters' report; the rounds argument.
module fcommon
  implicit none
  integer(8), save :: digest = 0
  real(8), save :: sink = 0
contains
  subroutine fold(v)
    integer, intent(in) :: v
    digest = mod(digest * 65599_8 + int(v, 8) + 12345_8, 2147483629_8)
  end subroutine

  ! About a microsecond per thousand units, varying with (a, b).
  subroutine spin(a, b)
    integer, intent(in) :: a, b
    integer :: i, n
    n = mod(a * 7919 + b * 104729, 40000)
    do i = 1, n
      sink = sink * 0.999999d0 + 1d-9
    end do
  end subroutine

  subroutine ok(ierr, what)
    use, intrinsic :: iso_fortran_env, only: error_unit
    integer, intent(in) :: ierr
    character(len=*), intent(in) :: what
    if (ierr /= 0) then
      write(error_unit, '(A, A, A, I0)') 'invariant broken: ', what, ' returned ', ierr
      error stop 1
    end if
  end subroutine

  ! The ticket counters' report (f_tickets, f08_tickets; the Fortran side of
  ! ../../integration/rma/tickets.h): all(n, nranks) holds every rank's n tickets, which must be
  ! 0 .. n * nranks - 1 each once (Fetch_and_op's answers were right); one line per rank,
  ! "rank R tickets a b c ...".
  subroutine report_tickets(all, n, nranks)
    integer, intent(in) :: n, nranks, all(n, nranks)
    integer :: r, i
    logical :: seen(0:n * nranks - 1)
    seen = .false.
    do r = 1, nranks
      do i = 1, n
        if (all(i, r) < 0 .or. all(i, r) >= n * nranks) call ok(-1, 'ticket out of range')
        if (seen(all(i, r))) call ok(-1, 'ticket taken twice')
        seen(all(i, r)) = .true.
      end do
      write(*, '(A, I0, A, *(1X, I0))') 'rank ', r - 1, ' tickets', all(:, r)
    end do
  end subroutine

  ! The programs' rounds: argument 1 when given, else dflt.
  integer function rounds_arg(dflt)
    integer, intent(in) :: dflt
    character(len=32) :: arg
    rounds_arg = dflt
    if (command_argument_count() >= 1) then
      call get_command_argument(1, arg)
      read(arg, *) rounds_arg
    end if
  end function

  subroutine print_digest()
    if (sink < 0) print *, sink ! keeps the work
    write(*, '(A, Z16.16)') 'digest ', digest
  end subroutine
end module
