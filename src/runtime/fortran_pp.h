/* fortran_pp.h: the preprocessor machinery the Fortran wrappers are generated with: iterating
 * a macro over a row's argument list, and looking a parameter's kind up with an optional
 * per-call override, and exporting a function under a row's Fortran names. Only the Fortran
 * entry points (fortran_wrappers.c, fortran_forward.c) use it; nothing here knows about MPI. */
#ifndef MPIRR_FORTRAN_PP_H
#define MPIRR_FORTRAN_PP_H

#define F_CAT(a, b) F_CAT_(a, b)
#define F_CAT_(a, b) a##b
#define F_STR(x) F_STR_(x)
#define F_STR_(x) #x
#define F_UNPAREN(...) __VA_ARGS__
#define F_COMMA() ,
#define F_NOTHING()

/* F_SECOND(x, dflt): the element after the first. A lookup macro defined as `~, VALUE` makes
 * F_SECOND(LOOKUP, dflt) give VALUE; an undefined LOOKUP stays one token and dflt wins. This
 * is how a per-call override replaces the default kind of a parameter name. */
#define F_SECOND(...) F_SECOND_(__VA_ARGS__, ~, ~)
#define F_SECOND_(a, b, ...) b

/* F_EACH(m, sep, ctx, (a, b, c)) -> m(ctx, a) sep() m(ctx, b) sep() m(ctx, c), for up to 13
 * elements (MPI_Sendrecv has 12). An empty list `()` is one empty element. */
#define F_EACH(m, sep, ctx, list) F_EACH_(m, sep, ctx, F_UNPAREN list)
#define F_EACH_(m, sep, ctx, ...) F_CAT(F_EACH_, F_NARGS(__VA_ARGS__))(m, sep, ctx, __VA_ARGS__)
#define F_NARGS(...) F_NARGS_(__VA_ARGS__, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, ~)
#define F_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, n, ...) n
#define F_EACH_1(m, s, c, a) m(c, a)
#define F_EACH_2(m, s, c, a, ...) m(c, a) s() F_EACH_1(m, s, c, __VA_ARGS__)
#define F_EACH_3(m, s, c, a, ...) m(c, a) s() F_EACH_2(m, s, c, __VA_ARGS__)
#define F_EACH_4(m, s, c, a, ...) m(c, a) s() F_EACH_3(m, s, c, __VA_ARGS__)
#define F_EACH_5(m, s, c, a, ...) m(c, a) s() F_EACH_4(m, s, c, __VA_ARGS__)
#define F_EACH_6(m, s, c, a, ...) m(c, a) s() F_EACH_5(m, s, c, __VA_ARGS__)
#define F_EACH_7(m, s, c, a, ...) m(c, a) s() F_EACH_6(m, s, c, __VA_ARGS__)
#define F_EACH_8(m, s, c, a, ...) m(c, a) s() F_EACH_7(m, s, c, __VA_ARGS__)
#define F_EACH_9(m, s, c, a, ...) m(c, a) s() F_EACH_8(m, s, c, __VA_ARGS__)
#define F_EACH_10(m, s, c, a, ...) m(c, a) s() F_EACH_9(m, s, c, __VA_ARGS__)
#define F_EACH_11(m, s, c, a, ...) m(c, a) s() F_EACH_10(m, s, c, __VA_ARGS__)
#define F_EACH_12(m, s, c, a, ...) m(c, a) s() F_EACH_11(m, s, c, __VA_ARGS__)
#define F_EACH_13(m, s, c, a, ...) m(c, a) s() F_EACH_12(m, s, c, __VA_ARGS__)

/* The kind of parameter p of call name: FOVR_<name>_<p> if defined, else FDEF_<p>. A kind is
 * a parenthesised tuple (KIND, extra...) (fortran_kinds.h). */
#define F_KIND(name, p) F_SECOND(FOVR_##name##_##p, FDEF_##p)

/* F_STAGE(stage, name, p) -> F_<stage>_<KIND>(p, extra...): what that stage of a wrapper
 * does with the parameter (fortran_convert.h). The indirections let each layer see the
 * tuple's commas. */
#define F_STAGE(stage, name, p) F_STAGE_1(stage, p, F_UNPAREN F_KIND(name, p))
/* The same with the kind tuple given (another table's lookup: fortran_forward.c). */
#define F_STAGE_OF(kind, stage, p) F_STAGE_1(stage, p, F_UNPAREN kind)
#define F_STAGE_1(stage, p, ...) F_STAGE_2(stage, p, __VA_ARGS__)
#define F_STAGE_2(stage, p, ...) F_STAGE_3(stage, p, __VA_ARGS__)
#define F_STAGE_3(stage, p, kind, ...) F_##stage##_##kind(p, __VA_ARGS__)

/* Another exported name for the function fn; F_MPIFH_NAMES: every name gfortran's mpif.h and
 * `use mpi` may call for the row `name` (mpi_recv, mpi_recv_, mpi_recv__, MPI_RECV), from the
 * generated fortran_names.h (the preprocessor cannot change case). */
#define F_ALIAS_OF(fn, sym) extern __typeof__(fn) sym __attribute__((alias(F_STR(fn))));
#define F_MPIFH_NAMES(fn, name)                                                                \
    F_ALIAS_OF(fn, F_LOWER_##name)                                                             \
    F_ALIAS_OF(fn, F_CAT(F_LOWER_##name, _))                                                   \
    F_ALIAS_OF(fn, F_CAT(F_LOWER_##name, __))                                                  \
    F_ALIAS_OF(fn, F_UPPER_##name)

#endif
