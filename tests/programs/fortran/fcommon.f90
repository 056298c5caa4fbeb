! fcommon.f90: what the Fortran test programs share (the Fortran side of ../common.h): uneven
! deterministic CPU work between messages, so that timing noise reorders them (never a clock),
! and the digest every observed outcome is folded into; rank 0 prints `digest <hex>`.
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

  subroutine print_digest()
    if (sink < 0) print *, sink ! keeps the work
    write(*, '(A, Z16.16)') 'digest ', digest
  end subroutine
end module
