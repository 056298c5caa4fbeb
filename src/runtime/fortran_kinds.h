/* fortran_kinds.h: how Fortran passes each parameter of the rows of mpi_calls.def, keyed by the
 * parameter's name, so that a row of the table is also its Fortran binding (Open MPI only; see
 * fortran_wrappers.c). A new row needs nothing here unless it introduces a parameter name, or
 * reuses a name with another C type (then one FOVR_ line).
 *
 *   FDEF_<param>           (KIND, extra...) for every call with a parameter of that name
 *   FOVR_<call>_<param>    ~, (KIND, extra...) for one call whose parameter differs
 *   FSKIP_<call>           ~, SKIP: no Fortran binding for that call
 *   FSKIP_CAT_<category>   ~, SKIP: none for the calls of that category
 *   FGEN_<call>            ~, BIND: a binding for that generated row (mpi_calls_generated.def):
 *                          written by scripts/gen_mpi_calls.py into fortran_generated.h, for
 *                          every row whose parameters all have a kind here that fits their C
 *                          type (or that their C type decides); the docs list the others
 *                          (fortran_forwarded.h: the rows forwarded to Open MPI's bindings)
 *
 * Kinds (fortran_convert.h): VAL int by value; PTR int* (scalar out, int arrays, Fortran
 * LOGICAL arrays: gfortran's .TRUE. is 1); LOG_IN, LOG_OUT a LOGICAL scalar; AINT, AINT_PTR
 * INTEGER(MPI_ADDRESS_KIND) by value or pointer; OFFSET, OFFSET_PTR INTEGER(MPI_OFFSET_KIND);
 * COUNT, COUNT_PTR INTEGER(MPI_COUNT_KIND); RANGES MPI_Group_range_incl's ranges(3, n);
 * ADDR_OUT a variable receiving an address (baseptr: INTEGER(MPI_ADDRESS_KIND) or
 * TYPE(C_PTR), both written as a C pointer, as Open MPI's bindings do); BUF a choice buffer (MPI_IN_PLACE and
 * MPI_BOTTOM translated); H_IN, H_PTR a handle of type T by value, or by address (written
 * back); HS_IN, HS_PTR an array of N handles; STATUS, STATUS_IN, STATUS_INOUT, STATUSES a
 * status (out, in, updated) or array of N (Fortran's ignore constants honoured); INDEX_OUT, INDICES request indices (Fortran
 * counts from 1); STR_IN, STR_OUT, STR_OUT_N a CHARACTER argument (hidden length); NOARG no
 * Fortran argument, NULL in C (MPI_Init's argc and argv); NONE the empty list of a call
 * without parameters. */
#ifndef MPIRR_FORTRAN_KINDS_H
#define MPIRR_FORTRAN_KINDS_H

#define FDEF_ (NONE)

/* initialisation */
#define FDEF_argc (NOARG)
#define FDEF_argv (NOARG)
#define FDEF_required (VAL)
#define FDEF_provided (PTR)
#define FDEF_flag (LOG_OUT)
#define FDEF_errorcode (VAL)

/* point to point */
#define FDEF_buf (BUF)
#define FDEF_buffer (BUF)
#define FDEF_sendbuf (BUF)
#define FDEF_recvbuf (BUF)
#define FDEF_inbuf (BUF)
#define FDEF_outbuf (BUF)
#define FDEF_count (VAL)
#define FDEF_sendcount (VAL)
#define FDEF_recvcount (VAL)
#define FDEF_incount (VAL)
#define FDEF_outcount (PTR)
#define FDEF_size (PTR)
#define FDEF_dest (VAL)
#define FDEF_source (VAL)
#define FDEF_tag (VAL)
#define FDEF_sendtag (VAL)
#define FDEF_recvtag (VAL)
#define FDEF_datatype (H_IN, Type)
#define FDEF_sendtype (H_IN, Type)
#define FDEF_recvtype (H_IN, Type)
#define FDEF_comm (H_IN, Comm)
#define FDEF_request (H_PTR, Request)
#define FDEF_message (H_PTR, Message)
#define FDEF_status (STATUS)
#define FDEF_array_of_requests (HS_PTR, Request, *count)
#define FDEF_array_of_statuses (STATUSES, *count)
#define FDEF_array_of_indices (INDICES, *outcount)
#define FDEF_index (INDEX_OUT)

/* collectives */
#define FDEF_root (VAL)
#define FDEF_op (H_IN, Op)
#define FDEF_sendcounts (PTR)
#define FDEF_recvcounts (PTR)
#define FDEF_displs (PTR)
#define FDEF_sdispls (PTR)
#define FDEF_rdispls (PTR)
#define FDEF_sendtypes (HS_IN, Type, f_comm_peers(*comm))
#define FDEF_recvtypes (HS_IN, Type, f_comm_peers(*comm))

/* communicators, topologies, groups */
#define FDEF_rank (PTR)
#define FDEF_newcomm (H_PTR, Comm)
#define FDEF_color (VAL)
#define FDEF_key (VAL)
#define FDEF_split_type (VAL)
#define FDEF_info (H_IN, Info)
#define FDEF_group (H_IN, Group)
#define FDEF_group1 (H_IN, Group)
#define FDEF_group2 (H_IN, Group)
#define FDEF_newgroup (H_PTR, Group)
#define FDEF_comm1 (H_IN, Comm)
#define FDEF_comm2 (H_IN, Comm)
#define FDEF_result (PTR)
#define FDEF_local_comm (H_IN, Comm)
#define FDEF_peer_comm (H_IN, Comm)
#define FDEF_intercomm (H_IN, Comm)
#define FDEF_local_leader (VAL)
#define FDEF_remote_leader (VAL)
#define FDEF_newintercomm (H_PTR, Comm)
#define FDEF_newintracomm (H_PTR, Comm)
#define FDEF_high (LOG_IN)
#define FDEF_errhandler (H_IN, Errhandler)
#define FDEF_comm_name (STR_OUT, MPI_MAX_OBJECT_NAME)
#define FDEF_resultlen (PTR)
#define FDEF_comm_old (H_IN, Comm)
#define FDEF_comm_cart (H_PTR, Comm)
#define FDEF_ndims (VAL)
#define FDEF_dims (PTR)
#define FDEF_periods (PTR)
#define FDEF_reorder (LOG_IN)
#define FDEF_maxdims (VAL)
#define FDEF_coords (PTR)
#define FDEF_direction (VAL)
#define FDEF_disp (VAL)
#define FDEF_rank_source (PTR)
#define FDEF_rank_dest (PTR)
#define FDEF_remain_dims (PTR)
#define FDEF_nnodes (VAL)
#define FDEF_indx (PTR)
#define FDEF_edges (PTR)
#define FDEF_comm_graph (H_PTR, Comm)
#define FDEF_n (VAL)
#define FDEF_ranks (PTR)
#define FDEF_ranks1 (PTR)
#define FDEF_ranks2 (PTR)

/* datatypes */
#define FDEF_oldtype (H_IN, Type)
#define FDEF_newtype (H_PTR, Type)
#define FDEF_blocklength (VAL)
#define FDEF_stride (VAL)
#define FDEF_array_of_blocklengths (PTR)
#define FDEF_array_of_displacements (PTR)
#define FDEF_array_of_types (HS_IN, Type, *count)
#define FDEF_array_of_sizes (PTR)
#define FDEF_array_of_subsizes (PTR)
#define FDEF_array_of_starts (PTR)
#define FDEF_order (VAL)
#define FDEF_lb (AINT_PTR)
#define FDEF_extent (AINT_PTR)
#define FDEF_position (PTR)
#define FDEF_insize (VAL)
#define FDEF_outsize (VAL)

/* environment */
#define FDEF_name (STR_OUT, MPI_MAX_PROCESSOR_NAME)
#define FDEF_version (PTR)
#define FDEF_subversion (PTR)
#define FDEF_string (STR_OUT, MPI_MAX_ERROR_STRING)
#define FDEF_errorclass (PTR)

/* the same name with another C type in one call */
#define FOVR_MPI_Comm_free_comm ~, (H_PTR, Comm)
#define FOVR_MPI_Request_get_status_request ~, (H_IN, Request)
#define FOVR_MPI_Type_commit_datatype ~, (H_PTR, Type)
#define FOVR_MPI_Type_free_datatype ~, (H_PTR, Type)
#define FOVR_MPI_Op_free_op ~, (H_PTR, Op)
#define FOVR_MPI_Group_free_group ~, (H_PTR, Group)
#define FOVR_MPI_Comm_group_group ~, (H_PTR, Group)
#define FOVR_MPI_Comm_get_errhandler_errhandler ~, (H_PTR, Errhandler)
#define FOVR_MPI_Get_count_count ~, (PTR)
#define FOVR_MPI_Get_elements_count ~, (PTR)
#define FOVR_MPI_Get_count_status ~, (STATUS_IN)
#define FOVR_MPI_Get_elements_status ~, (STATUS_IN)
#define FOVR_MPI_Test_cancelled_status ~, (STATUS_IN)
#define FOVR_MPI_Buffer_attach_size ~, (VAL)
#define FOVR_MPI_Cart_coords_rank ~, (VAL)
#define FOVR_MPI_Unpack_outcount ~, (VAL)
#define FOVR_MPI_Type_create_hvector_stride ~, (AINT)
#define FOVR_MPI_Type_create_resized_lb ~, (AINT)
#define FOVR_MPI_Type_create_resized_extent ~, (AINT)
#define FOVR_MPI_Type_create_struct_array_of_displacements ~, (AINT_PTR)
#define FOVR_MPI_Comm_set_name_comm_name ~, (STR_IN)
#define FOVR_MPI_Get_library_version_version ~, (STR_OUT, MPI_MAX_LIBRARY_VERSION_STRING)
#define FOVR_MPI_Waitsome_array_of_requests ~, (HS_PTR, Request, *incount)
#define FOVR_MPI_Testsome_array_of_requests ~, (HS_PTR, Request, *incount)
#define FOVR_MPI_Waitsome_array_of_statuses ~, (STATUSES, *incount)
#define FOVR_MPI_Testsome_array_of_statuses ~, (STATUSES, *incount)

/* ---- one-sided (RMA), MPI-IO and dynamic processes (issue 32) ---- */
#define FDEF_win (H_IN, Win)
#define FDEF_base (BUF)
#define FDEF_baseptr (ADDR_OUT)
#define FDEF_disp_unit (VAL)
#define FDEF_assert (VAL)
#define FDEF_lock_type (VAL)
#define FDEF_origin_addr (BUF)
#define FDEF_origin_count (VAL)
#define FDEF_origin_datatype (H_IN, Type)
#define FDEF_result_addr (BUF)
#define FDEF_result_count (VAL)
#define FDEF_result_datatype (H_IN, Type)
#define FDEF_compare_addr (BUF)
#define FDEF_target_rank (VAL)
#define FDEF_target_disp (AINT)
#define FDEF_target_count (VAL)
#define FDEF_target_datatype (H_IN, Type)
#define FDEF_fh (H_IN, File)
#define FDEF_offset (OFFSET)
#define FDEF_filename (STR_IN)
#define FDEF_amode (VAL)
#define FDEF_port_name (STR_IN)
/* the window a call creates or frees is written back */
#define FOVR_MPI_Win_create_win ~, (H_PTR, Win)
#define FOVR_MPI_Win_allocate_win ~, (H_PTR, Win)
#define FOVR_MPI_Win_allocate_shared_win ~, (H_PTR, Win)
#define FOVR_MPI_Win_create_dynamic_win ~, (H_PTR, Win)
#define FOVR_MPI_Win_free_win ~, (H_PTR, Win)
#define FOVR_MPI_Win_get_group_group ~, (H_PTR, Group)
/* a window's size is an MPI_Aint, its target rank an input */
#define FOVR_MPI_Win_create_size ~, (AINT)
#define FOVR_MPI_Win_allocate_size ~, (AINT)
#define FOVR_MPI_Win_allocate_shared_size ~, (AINT)
#define FOVR_MPI_Win_attach_size ~, (AINT)
#define FOVR_MPI_Win_shared_query_size ~, (AINT_PTR)
#define FOVR_MPI_Win_shared_query_disp_unit ~, (PTR)
#define FOVR_MPI_Win_shared_query_rank ~, (VAL)
#define FOVR_MPI_Win_lock_rank ~, (VAL)
#define FOVR_MPI_Win_unlock_rank ~, (VAL)
#define FOVR_MPI_Win_flush_rank ~, (VAL)
#define FOVR_MPI_Win_flush_local_rank ~, (VAL)
#define FOVR_MPI_File_get_position_shared_offset ~, (OFFSET_PTR)
#define FOVR_MPI_File_open_fh ~, (H_PTR, File)
#define FOVR_MPI_File_close_fh ~, (H_PTR, File)
/* ---- the generated rows (mpi_calls_generated.def): scripts/gen_mpi_calls.py binds each row
 * whose parameters all have a kind that fits their C type (fortran_generated.h: FGEN_<call>,
 * and FOVR_ for the parameters whose C type alone decides the kind: MPI_Aint, MPI_Offset,
 * MPI_Count, const char *, a handle by value). These are the names and overrides it needs. ---- */
#define FDEF_comm_keyval (VAL)
#define FDEF_type_keyval (VAL)
#define FDEF_win_keyval (VAL)
#define FDEF_commute (LOG_OUT)
#define FDEF_weighted (LOG_OUT)
#define FDEF_inneighbors (PTR)
#define FDEF_outneighbors (PTR)
#define FDEF_info_used (H_PTR, Info)
#define FDEF_newinfo (H_PTR, Info)
#define FDEF_parent (H_PTR, Comm)
#define FDEF_fd (VAL)
#define FDEF_inoutbuf (BUF)
#define FDEF_location (BUF)
#define FDEF_address (AINT_PTR)
#define FDEF_maxindex (VAL)
#define FDEF_maxedges (VAL)
#define FDEF_maxneighbors (VAL)
#define FDEF_neighbors (PTR)
#define FDEF_nneighbors (PTR)
#define FDEF_nedges (PTR)
#define FDEF_newrank (PTR)
#define FDEF_nkeys (PTR)
#define FDEF_num_integers (PTR)
#define FDEF_num_addresses (PTR)
#define FDEF_num_datatypes (PTR)
#define FDEF_combiner (PTR)
#define FDEF_max_integers (VAL)
#define FDEF_max_addresses (VAL)
#define FDEF_max_datatypes (VAL)
#define FDEF_array_of_integers (PTR)
#define FDEF_array_of_datatypes (HS_PTR, Type, *max_datatypes)
#define FDEF_p (VAL)
#define FDEF_r (VAL)
#define FDEF_typeclass (VAL)
#define FDEF_whence (VAL)
#define FDEF_ranges (RANGES)
/* MPI_Dist_graph_neighbors fills the weights only of a weighted graph: an unweighted one's
 * MPI_UNWEIGHTED (a common block) is never written to */
#define FDEF_maxindegree (VAL)
#define FDEF_maxoutdegree (VAL)
#define FDEF_sources (PTR)
#define FDEF_sourceweights (PTR)
#define FDEF_destinations (PTR)
#define FDEF_destweights (PTR)
#define FOVR_MPI_File_get_amode_amode ~, (PTR)
#define FOVR_MPI_Comm_free_keyval_comm_keyval ~, (PTR)
#define FOVR_MPI_Type_free_keyval_type_keyval ~, (PTR)
#define FOVR_MPI_Win_free_keyval_win_keyval ~, (PTR)
#define FOVR_MPI_Comm_disconnect_comm ~, (H_PTR, Comm)
#define FOVR_MPI_File_get_errhandler_errhandler ~, (H_PTR, Errhandler)
#define FOVR_MPI_Win_get_errhandler_errhandler ~, (H_PTR, Errhandler)
#define FOVR_MPI_Errhandler_free_errhandler ~, (H_PTR, Errhandler)
#define FOVR_MPI_Add_error_code_errorclass ~, (VAL)
#define FOVR_MPI_Add_error_code_errorcode ~, (PTR)
#define FOVR_MPI_File_get_view_etype ~, (H_PTR, Type)
#define FOVR_MPI_File_get_view_filetype ~, (H_PTR, Type)
#define FOVR_MPI_File_get_view_datarep ~, (STR_OUT, MPI_MAX_DATAREP_STRING)
#define FOVR_MPI_File_set_atomicity_flag ~, (LOG_IN)
#define FOVR_MPI_Status_set_cancelled_flag ~, (LOG_IN)
#define FOVR_MPI_Status_set_cancelled_status ~, (STATUS_INOUT)
#define FOVR_MPI_Status_set_elements_status ~, (STATUS_INOUT)
#define FOVR_MPI_Status_set_elements_x_status ~, (STATUS_INOUT)
#define FOVR_MPI_Get_elements_x_status ~, (STATUS_IN)
#define FOVR_MPI_Comm_remote_group_group ~, (H_PTR, Group)
#define FOVR_MPI_File_get_group_group ~, (H_PTR, Group)
#define FOVR_MPI_Info_create_info ~, (H_PTR, Info)
#define FOVR_MPI_Info_free_info ~, (H_PTR, Info)
/* a graph's index array is no request index (FDEF_index) */
#define FOVR_MPI_Graph_get_index ~, (PTR)
#define FOVR_MPI_Graph_map_index ~, (PTR)
#define FOVR_MPI_Graph_neighbors_rank ~, (VAL)
#define FOVR_MPI_Graph_neighbors_count_rank ~, (VAL)
#define FOVR_MPI_Cartdim_get_ndims ~, (PTR)
#define FOVR_MPI_Graphdims_get_nnodes ~, (PTR)
#define FOVR_MPI_Unpack_external_outcount ~, (VAL)
#define FOVR_MPI_Topo_test_status ~, (PTR)
#define FOVR_MPI_Info_get_valuelen_valuelen ~, (PTR)
#define FOVR_MPI_Type_match_size_size ~, (VAL)
#define FOVR_MPI_Type_match_size_type ~, (H_PTR, Type)
#define FOVR_MPI_Comm_join_intercomm ~, (H_PTR, Comm)
#define FOVR_MPI_Info_get_nthkey_key ~, (STR_OUT, MPI_MAX_INFO_KEY)
/* MPI_Info_get: the value's C buffer holds the valuelen characters Fortran asks for (more than
 * its CHARACTER variable may hold), and the variable is written only when the key was found */
#define FOVR_MPI_Info_get_valuelen ~, (VAL)
#define FOVR_MPI_Info_get_value ~, (STR_OUT_N, *valuelen, c_flag)
#define FOVR_MPI_Open_port_port_name ~, (STR_OUT, MPI_MAX_PORT_NAME)
#define FOVR_MPI_Lookup_name_port_name ~, (STR_OUT, MPI_MAX_PORT_NAME)
#define FOVR_MPI_Type_get_name_type_name ~, (STR_OUT, MPI_MAX_OBJECT_NAME)
#define FOVR_MPI_Win_get_name_win_name ~, (STR_OUT, MPI_MAX_OBJECT_NAME)
/* a neighborhood collective has one type per neighbour, not per member of the communicator */
#define FOVR_MPI_Neighbor_alltoallw_sendtypes ~, (HS_IN, Type, f_comm_neighbors(*comm, 1))
#define FOVR_MPI_Neighbor_alltoallw_recvtypes ~, (HS_IN, Type, f_comm_neighbors(*comm, 0))
#define FOVR_MPI_Ineighbor_alltoallw_sendtypes ~, (HS_IN, Type, f_comm_neighbors(*comm, 1))
#define FOVR_MPI_Ineighbor_alltoallw_recvtypes ~, (HS_IN, Type, f_comm_neighbors(*comm, 0))

/* MPI-4 large-count rows (MPICH's mpi_f08 `_f08_large_` entries, fortran_mpich_f08.c) */
#define FOVR_MPI_Get_count_c_status ~, (STATUS_IN)
#define FOVR_MPI_Get_elements_c_status ~, (STATUS_IN)
#define FOVR_MPI_Win_allocate_c_win ~, (H_PTR, Win)
#define FOVR_MPI_Win_allocate_shared_c_win ~, (H_PTR, Win)
#define FOVR_MPI_Win_shared_query_c_rank ~, (VAL)

/* No converting binding for the hand-written rows whose Fortran form no kind translates
 * (MPI_Comm_spawn(_multiple)'s CHARACTER argv arrays, MPI_Op_create's Fortran user function,
 * MPI_Dist_graph_create(_adjacent)'s MPI_UNWEIGHTED): their entry points are forwarded to Open
 * MPI's own bindings (fortran_forward.c; scripts/gen_mpi_calls.py's FORTRAN_FORWARDED says why
 * for each). MPI_BUFFER_DETACH returns its address in mpi_f08 only, so its bindings are written
 * out in fortran_wrappers.c. */
#define FSKIP_MPI_Comm_spawn ~, SKIP
#define FSKIP_MPI_Comm_spawn_multiple ~, SKIP
#define FSKIP_MPI_Op_create ~, SKIP
#define FSKIP_MPI_Buffer_detach ~, SKIP
#define FSKIP_MPI_Dist_graph_create ~, SKIP
#define FSKIP_MPI_Dist_graph_create_adjacent ~, SKIP

#endif
