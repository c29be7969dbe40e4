/* Socket lookups (issue 15): p_sock and its unsafe twin p_sock_unsafe, the first loop piece of
 * an XDP program's prologue (r1 the context, r0-r5 clobbered, then r1 the context, r2 the
 * checked data pointer and r3 data_end again for the pieces after it):
 *
 *     r6 = r1; *(u64 *)(fp + b) = 0; *(u64 *)(fp + b + 8) = 0    (a 12-byte IPv4 tuple)
 *     r1 = r6; r2 = fp + b; r3 = 12; r4 = -1 (BPF_F_CURRENT_NETNS); r5 = 0
 *     call bpf_sk_lookup_tcp (_udp, bpf_skc_lookup_tcp)
 *     if r0 == 0 goto out; r2 = *(u32 *)(r0 + f); r1 = r0; call bpf_sk_release
 *   out:
 *
 * f a field of struct bpf_sock a sock_common has (bpf_sock_common_is_valid_access).  Half the
 * pieces also put the socket in a socket map (map 7, GEN_MAP_SOCK: a sockmap or a sockhash,
 * whose value the kernel takes as a socket, and XDP may update and delete in it:
 * may_update_sockmap) before the release, its key the tuple's first 4 bytes (0):
 *
 *     r7 = r0; r1 = map 7; r2 = fp + b; r3 = r7; r4 = 0; call bpf_map_update_elem
 *     r1 = map 7; r2 = fp + b; call bpf_map_delete_elem; r0 = r7
 *
 * and half of those look the socket up in the map between the update and the delete (the lookup
 * form: a socket map's lookup acquires a socket of its own, the kernel's is_acquire_function):
 *
 *     r1 = map 7; r2 = fp + b; call bpf_map_lookup_elem
 *     if r0 == 0 goto skip; r2 = *(u32 *)(r0 + f); r1 = r0; call bpf_sk_release
 *   skip:
 *
 * The twin (GEN_PROG_SOCK_UNSAFE) leaks the socket (no release: the kernel's "Unreleased
 * reference"), reads it after the release, reads it before its NULL test (with flags 1, which
 * makes every lookup NULL), reads 4 bytes past struct bpf_sock (at 128 and up), or (the
 * socket-map form) gives the socket map the tuple on the stack as its value (r3 = fp + b:
 * "R3 type=fp expected=sock_common"), or (the lookup form) reads the map's socket before its
 * NULL test and never releases it, or releases it before its NULL test and reads it through a
 * copy spilled at fp + b + 8 (each traps on whatever the map's lookup draws); its helper data's first
 * byte is odd, so the interpreter's lookup finds a socket (interp.c sock_helper: this call
 * draws first) and every run traps.  b is two of main's variable homes in fp-208 .. fp-24,
 * which hold nothing yet in the prologue; r6 is free there.
 */
#include "generators/gen_internal.h"

#include "bpf/isa.h"

enum { SOCK_LEAK, SOCK_AFTER_RELEASE, SOCK_UNCHECKED, SOCK_PAST, SOCK_MAP_STACK,
       SOCK_MAP_LOOKUP_UNCHECKED, SOCK_MAP_LOOKUP_RELEASED };

/* The lookup form's piece, between the update and the delete (the socket held in r7): the
 * socket map's lookup acquires a socket of its own (the kernel's is_acquire_function), read
 * and released after its NULL test.  Its twins (tk): read before the NULL test and never
 * released (a NULL read, or a leak, whichever the run draws), or released before the NULL test
 * and read through a copy spilled at fp + b + 8 (a NULL release, or a read after the release:
 * "invalid mem access 'scalar'"); so every run of a twin traps whatever it finds. */
static void sock_map_lookup_piece(struct gi *g, int16_t b, int16_t f, unsigned tk)
{
	int l_skip = gi_label(g);

	gi_ld_map(g, BPF_REG_1, GEN_MAP_SOCK);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, b);
	gi_call_helper(g, BPF_FUNC_map_lookup_elem);
	if (tk == SOCK_MAP_LOOKUP_UNCHECKED) {
		gi_ldx(g, BPF_W, BPF_REG_2, BPF_REG_0, f);
		return;
	}
	if (tk == SOCK_MAP_LOOKUP_RELEASED) {
		gi_stx(g, BPF_DW, EBPF_REG_FP, (int16_t)(b + 8), BPF_REG_0);
		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_0);
		gi_call_helper(g, BPF_FUNC_sk_release);
		gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, (int16_t)(b + 8));
		gi_ldx(g, BPF_W, BPF_REG_2, BPF_REG_2, f);
		return;
	}
	gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, l_skip);
	gi_ldx(g, BPF_W, BPF_REG_2, BPF_REG_0, f);
	gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_0);
	gi_call_helper(g, BPF_FUNC_sk_release);
	gi_bind(g, l_skip);
}

/* The socket-map form: the socket in r0 (not NULL) put in map 7 and deleted again, or (stack)
 * the tuple at fp + b given as the value; r0 the socket again after it.  With lookup, the
 * socket map's lookup between (sock_map_lookup_piece). */
static void sock_map_piece(struct gi *g, int16_t b, int16_t f, unsigned tk, bool lookup)
{
	bool stack = tk == SOCK_MAP_STACK;

	gi_alux(g, true, BPF_MOV, BPF_REG_7, BPF_REG_0);
	gi_ld_map(g, BPF_REG_1, GEN_MAP_SOCK);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, b);
	if (stack) {
		gi_alux(g, true, BPF_MOV, BPF_REG_3, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_3, b);
	} else {
		gi_alux(g, true, BPF_MOV, BPF_REG_3, BPF_REG_7);
	}
	gi_mov_const(g, BPF_REG_4, 0, true);
	gi_call_helper(g, BPF_FUNC_map_update_elem);
	if (lookup)
		sock_map_lookup_piece(g, b, f, tk);
	gi_ld_map(g, BPF_REG_1, GEN_MAP_SOCK);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, b);
	gi_call_helper(g, BPF_FUNC_map_delete_elem);
	gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_7);
}

void gi_sock(struct gi *g, bool bad)
{
	static const int16_t fields[] = { 0, 4, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 68, 72 };
	static const int32_t lookups[] = { BPF_FUNC_sk_lookup_tcp, BPF_FUNC_sk_lookup_udp,
					   BPF_FUNC_skc_lookup_tcp };
	bool use_map = gen_pick(g->src, 2);
	unsigned tk = bad ? gen_pick(g->src, use_map ? 7 : 4) : UINT32_MAX;
	int16_t b = (int16_t)(-40 - 8 * (int32_t)gen_pick(g->src, 21));
	int16_t f = tk == SOCK_PAST ? (int16_t)(128 + 4 * gen_pick(g->src, 32))
				    : fields[gen_pick(g->src, sizeof(fields) / sizeof(fields[0]))];
	int l_out = gi_label(g);
	bool lookup;

	if (g->raw_tp)
		return;
	if (use_map)
		g->sock_map = (uint8_t)(1 + gen_pick(g->src, 2));
	gi_alux(g, true, BPF_MOV, BPF_REG_6, BPF_REG_1);
	gi_st(g, BPF_DW, EBPF_REG_FP, b, 0);
	gi_st(g, BPF_DW, EBPF_REG_FP, (int16_t)(b + 8), 0);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, b);
	gi_mov_const(g, BPF_REG_3, 12, true);
	gi_mov_const(g, BPF_REG_4, UINT64_MAX, true);
	gi_mov_const(g, BPF_REG_5, tk == SOCK_UNCHECKED ? 1 : 0, true);
	gi_call_helper(g, lookups[gen_pick(g->src, 3)]);
	/* (the lookup form: every twin of its own, half the safe ones and of the other twins) */
	lookup = use_map && (tk == SOCK_MAP_LOOKUP_UNCHECKED || tk == SOCK_MAP_LOOKUP_RELEASED ||
			     gen_pick(g->src, 2));
	if (tk != SOCK_UNCHECKED)
		gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, l_out);
	if (use_map && tk != SOCK_UNCHECKED)
		sock_map_piece(g, b, f < 128 ? f : 4, tk, lookup);
	if (tk != SOCK_AFTER_RELEASE)
		gi_ldx(g, BPF_W, BPF_REG_2, BPF_REG_0, f);
	if (tk != SOCK_LEAK) {
		gi_alux(g, true, BPF_MOV, BPF_REG_7, BPF_REG_0);
		gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_0);
		gi_call_helper(g, BPF_FUNC_sk_release);
	}
	if (tk == SOCK_AFTER_RELEASE)
		gi_ldx(g, BPF_W, BPF_REG_2, BPF_REG_7, f);
	gi_bind(g, l_out);
	/* (the context, the checked data pointer and data_end again) */
	gi_alux(g, true, BPF_MOV, BPF_REG_1, BPF_REG_6);
	gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
	gi_ldx(g, BPF_W, BPF_REG_3, BPF_REG_6, 4);
	if (bad) {
		g->p->flags |= GEN_PROG_SOCK_UNSAFE;
		g->sock_found = true;
	}
}

/* p_sk_prog (session 28): the program an sk_reuseport or an sk_lookup one, under raw_tp's rules
 * (gen.c: plain loops whose reads of the input are constant offsets of their size aligned from
 * the pointer spilled at GEN_FP_DATA, none of the network's pieces).  The context is spilled at
 * GEN_FP_DATA_END (free in that mode).
 *
 * sk_reuseport: GEN_FP_DATA is its packet (data, as whole u64s: sk_reuseport_is_valid_access)
 * after the prologue's test of GEN_INPUT_LEN bytes against data_end (else to the short exit,
 * r0 = 0): the loops read the packet, which is read only.  Its statement selects a socket of
 * the reuseport array (map 7, two entries) by a packet byte's low bit:
 *
 *     *(u32 *)(fp + GEN_FP_KEY) = data[c] & 1
 *     r1 = ctx; r2 = map 7; r3 = fp + GEN_FP_KEY; r4 = 0; call bpf_sk_select_reuseport
 *     acc += r0
 *
 * sk_lookup: its fifteen u32 fields from family to ingress_ifindex (offsets 8..64) are copied to
 * the 64 bytes at GEN_FP_ARRAY (the array's: no p_array for it), the last 4 zeroed, and that
 * copy is GEN_FP_DATA.  Its statement gives a socket of the socket map (map 7) to
 * bpf_sk_assign and releases it (the kernel's is_acquire_function: the lookup holds it):
 *
 *     *(u32 *)(fp + GEN_FP_KEY) = 0; r1 = map 7; r2 = fp + GEN_FP_KEY; call bpf_map_lookup_elem
 *     if r0 == 0 goto out; *(u64 *)(fp + GEN_FP_VALUE) = r0
 *     r1 = ctx; r2 = r0; r3 = 0; call bpf_sk_assign
 *     r1 = *(u64 *)(fp + GEN_FP_VALUE); call bpf_sk_release
 *   out:
 *
 * main returns its accumulator's low bit (SK_DROP, SK_PASS: emit.c gi_exit).  The twin
 * (GEN_PROG_SOCK_UNSAFE) does right after the prologue, so that every run of its own input
 * traps: a store into the read-only context (either type), a store into sk_reuseport's packet
 * or a read of the byte at data + GEN_INPUT_LEN + c (past what was tested, the packet being
 * GEN_INPUT_LEN bytes), or sk_lookup's statement without the release (the socket leaked: its
 * helper data's first byte odd, so the interpreter's lookup, the run's first draw, finds one). */
/* sk_lookup's statement: map 7's socket of key 0 given to bpf_sk_assign and released (leak: not
 * released, and the interpreter's lookup made to find it) */
static void sk_lookup_assign(struct gi *g, bool leak)
{
	int l_out = gi_label(g);

	gi_st(g, BPF_W, EBPF_REG_FP, GEN_FP_KEY, 0);
	gi_ld_map(g, BPF_REG_1, GEN_MAP_SOCK);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
	gi_alu(g, true, BPF_ADD, BPF_REG_2, GEN_FP_KEY);
	gi_call_helper(g, BPF_FUNC_map_lookup_elem);
	gi_jmp(g, false, BPF_JEQ, BPF_REG_0, 0, l_out);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_VALUE, BPF_REG_0);
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA_END);
	gi_alux(g, true, BPF_MOV, BPF_REG_2, BPF_REG_0);
	gi_mov_const(g, BPF_REG_3, 0, true);
	gi_call_helper(g, BPF_FUNC_sk_assign);
	if (leak) {
		g->sock_found = true;
	} else {
		gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_VALUE);
		gi_call_helper(g, BPF_FUNC_sk_release);
	}
	gi_bind(g, l_out);
}

/* p_cg_storage (issue 15, session 29): the program a cgroup_skb one under raw_tp's rules, as
 * p_sk_prog's.  GEN_FP_DATA is its cgroup storage (map 8, GEN_CGS_VALUE bytes: the pointer
 * bpf_get_local_storage returns, never NULL), the packet's length in its first u64 (the rest
 * zero: the kernel's test run and the interpreter allocate it zeroed); the loops read it.  The
 * context is spilled at GEN_FP_DATA_END.  Its statement adds 1 to the per-CPU storage's u64
 * (map 9) and the sum to the accumulator:
 *
 *     r1 = map 8; r2 = 0; call bpf_get_local_storage; *(u64 *)(fp + GEN_FP_DATA) = r0
 *     r1 = ctx; r1 = *(u32 *)(r1 + 0); *(u64 *)(r0 + 0) = r1        (prologue)
 *     r1 = map 9; r2 = 0; call bpf_get_local_storage
 *     r1 = *(u64 *)(r0 + 0); r1 += 1; *(u64 *)(r0 + 0) = r1; acc += r1   (statement)
 *
 * main returns its accumulator's low bit (cgroup_skb's check_return_code: emit.c gi_exit).  The
 * twin (GEN_PROG_SOCK_UNSAFE), right after the prologue: bpf_get_local_storage with flags 1
 * (the kernel: "get_local_storage() doesn't support non-zero flags"; the interpreter traps) or
 * a byte read past the storage's GEN_CGS_VALUE bytes. */
/* p_sk_msg (session 29): the program an sk_msg one, as sk_reuseport's (its message's data and
 * data_end are u64s at 0 and 8 of struct sk_msg_md too): GEN_FP_DATA is the message after the
 * prologue's test of GEN_INPUT_LEN bytes against data_end; its statement redirects to map 7's
 * socket of index data[c] & 1 (bpf_msg_redirect_map; the sockmap is empty: SK_DROP).  The twin,
 * right after the prologue: a store into the context's size (the kernel: the context is never
 * written), or a read of the byte at data + GEN_INPUT_LEN + c (the message written is the safe
 * form's, never the twin's). */
static void cg_storage_get(struct gi *g, int map, uint32_t flags)
{
	gi_ld_map(g, BPF_REG_1, map);
	gi_mov_const(g, BPF_REG_2, flags, true);
	gi_call_helper(g, BPF_FUNC_get_local_storage);
}

static void cg_prologue(struct gi *g)
{
	unsigned tk = g->sk_bad ? gen_pick(g->src, 2) : UINT32_MAX;

	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_DATA_END, BPF_REG_1);
	cg_storage_get(g, GEN_MAP_CGS, 0);
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_DATA, BPF_REG_0);
	/* (the skb's len: BPF_PROG_TEST_RUN gives a cgroup_skb program the packet without its
	 * Ethernet header, len 14 less than its input, which the kernel differential gives the
	 * interpreter stripped: kdiff.c l2_skip; fuzz --kernel --seed 1 --knob p_cg_storage=30
	 * #233 differed before) */
	gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA_END);
	gi_ldx(g, BPF_W, BPF_REG_1, BPF_REG_1, (int16_t)offsetof(struct __sk_buff, len));
	gi_stx(g, BPF_DW, BPF_REG_0, 0, BPF_REG_1);
	gi_array_zero(g);
	if (!g->sk_bad)
		return;
	g->p->flags |= GEN_PROG_SOCK_UNSAFE;
	if (tk == 0) {		/* flags 1 */
		cg_storage_get(g, gen_bool(g->src, 50) ? GEN_MAP_CGS : GEN_MAP_PCGS, 1);
	} else {		/* a byte past the storage */
		gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
		gi_ldx(g, BPF_B, BPF_REG_3, BPF_REG_2,
		       (int16_t)(GEN_CGS_VALUE + gen_pick(g->src, 8)));
	}
}

void gi_sk_prologue(struct gi *g, int l_short)
{
	if (g->sk_prog == GI_SK_TC) {	/* (p_ld_abs_sub: gen_ldabs.c) */
		gi_ld_prologue(g, l_short);
		return;
	}
	/* (sk_msg's packet as sk_reuseport's: data and data_end u64s at 0 and 8) */
	bool msg = g->sk_prog == GI_SK_MSG, reuse = g->sk_prog == GI_SK_REUSEPORT || msg;
	unsigned tk;

	if (g->sk_prog == GI_CG_SKB) {
		cg_prologue(g);
		return;
	}
	tk = g->sk_bad ? gen_pick(g->src, reuse && !msg ? 3 : 2) : UINT32_MAX;
	if (msg && tk == 1)
		tk = 2;		/* (sk_msg writes its message: the read past data_end) */
	gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_DATA_END, BPF_REG_1);
	if (reuse) {
		gi_pkt_bounds(g, BPF_DW, offsetof(struct sk_reuseport_md, data),
			      offsetof(struct sk_reuseport_md, data_end), l_short);
		gi_array_zero(g);
	} else {
		for (int k = 0; k < 15; k++) {
			gi_ldx(g, BPF_W, BPF_REG_2, BPF_REG_1,
			       (int16_t)(offsetof(struct bpf_sk_lookup, family) + 4 * k));
			gi_stx(g, BPF_W, EBPF_REG_FP, (int16_t)(GEN_FP_ARRAY + 4 * k), BPF_REG_2);
		}
		gi_st(g, BPF_W, EBPF_REG_FP, GEN_FP_ARRAY + 60, 0);
		gi_alux(g, true, BPF_MOV, BPF_REG_2, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_2, GEN_FP_ARRAY);
		gi_stx(g, BPF_DW, EBPF_REG_FP, GEN_FP_DATA, BPF_REG_2);
	}
	if (!g->sk_bad)
		return;
	g->p->flags |= GEN_PROG_SOCK_UNSAFE;
	if (tk == 0) {		/* the context written */
		gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA_END);
		gi_st(g, BPF_W, BPF_REG_1,
		      msg ? (int16_t)offsetof(struct sk_msg_md, size)
		      : reuse ? (int16_t)offsetof(struct sk_reuseport_md, hash)
			      : (int16_t)offsetof(struct bpf_sk_lookup, local_port), 0);
	} else if (reuse) {	/* the packet written, or read past what was tested */
		gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
		if (tk == 1)
			gi_st(g, BPF_B, BPF_REG_2, (int16_t)gen_pick(g->src, GEN_INPUT_LEN), 0);
		else
			gi_ldx(g, BPF_B, BPF_REG_3, BPF_REG_2,
			       (int16_t)(GEN_INPUT_LEN + gen_pick(g->src, 8)));
	} else {		/* the socket leaked */
		sk_lookup_assign(g, true);
	}
}

void gi_sk_stmt(struct gi *g, struct gi_loop *lp)
{
	int acc = g->fn->acc;

	if (g->sk_prog == GI_SK_TC) {	/* (p_ld_abs_sub: gen_ldabs.c) */
		gi_ld_stmt(g, lp);
		return;
	}
	gi_spill_caller_homes(g);
	if (g->sk_prog == GI_SK_MSG) {	/* msg_redirect_map(ctx, map 7, data[c] & 1, 0) */
		gi_ldx(g, BPF_DW, BPF_REG_3, EBPF_REG_FP, GEN_FP_DATA);
		gi_ldx(g, BPF_B, BPF_REG_3, BPF_REG_3, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
		gi_alu(g, true, BPF_AND, BPF_REG_3, 1);
		gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA_END);
		gi_ld_map(g, BPF_REG_2, GEN_MAP_SOCK);
		gi_mov_const(g, BPF_REG_4, 0, true);
		gi_call_helper(g, BPF_FUNC_msg_redirect_map);
		gi_fill_caller_homes(g);
		g->scratch_busy = 1u << BPF_REG_0;
		gi_var_alux(g, acc, BPF_ADD, BPF_REG_0);
	} else if (g->sk_prog == GI_SK_REUSEPORT) {
		gi_ldx(g, BPF_DW, BPF_REG_2, EBPF_REG_FP, GEN_FP_DATA);
		gi_ldx(g, BPF_B, BPF_REG_2, BPF_REG_2, (int16_t)gen_pick(g->src, GEN_INPUT_LEN));
		gi_alu(g, true, BPF_AND, BPF_REG_2, 1);
		gi_stx(g, BPF_W, EBPF_REG_FP, GEN_FP_KEY, BPF_REG_2);
		gi_ldx(g, BPF_DW, BPF_REG_1, EBPF_REG_FP, GEN_FP_DATA_END);
		gi_ld_map(g, BPF_REG_2, GEN_MAP_SOCK);
		gi_alux(g, true, BPF_MOV, BPF_REG_3, EBPF_REG_FP);
		gi_alu(g, true, BPF_ADD, BPF_REG_3, GEN_FP_KEY);
		gi_mov_const(g, BPF_REG_4, 0, true);
		gi_call_helper(g, BPF_FUNC_sk_select_reuseport);
		gi_fill_caller_homes(g);
		g->scratch_busy = 1u << BPF_REG_0;
		gi_var_alux(g, acc, BPF_ADD, BPF_REG_0);
	} else if (g->sk_prog == GI_CG_SKB) {
		cg_storage_get(g, GEN_MAP_PCGS, 0);
		gi_ldx(g, BPF_DW, BPF_REG_1, BPF_REG_0, 0);
		gi_alu(g, true, BPF_ADD, BPF_REG_1, 1);
		gi_stx(g, BPF_DW, BPF_REG_0, 0, BPF_REG_1);
		gi_alux(g, true, BPF_MOV, BPF_REG_0, BPF_REG_1);
		gi_fill_caller_homes(g);
		g->scratch_busy = 1u << BPF_REG_0;
		gi_var_alux(g, acc, BPF_ADD, BPF_REG_0);
	} else {
		sk_lookup_assign(g, false);
		gi_fill_caller_homes(g);
	}
	gi_scratch_release(g);
	if (lp)
		lp->shapes |= GEN_SH(HELPER);
}
