/* ALU instructions on pointers (scev/absint_verdict.c: verify_ptr_alu), the kernel's
 * adjust_reg_min_max_vals and adjust_ptr_min_max_vals as 6.18 applies them to a privileged
 * loader: per pointer type (stack, context, packet, packet end, map value, a map value that may
 * be NULL, a map handle), the operations it refuses, with its reason's words, and the ones it
 * accepts (copies, negation, byte swaps, sign extension, 32-bit subtraction, pointer less
 * pointer, scalar plus pointer), which stay safe.  Each case is a pointer, one operation and
 * "return 0": no access follows, so only the rule tells the verdicts apart.  Without bpf() the
 * kernel's verdicts are skipped (one line).
 */
#include "scev/scev.h"
#include "tests/check.h"
#include "tests/verdict_case.h"

#define STK "r1 = r10\n"
#define CTX ""
#define PKT "r1 = *(u32 *)(r1 +0)\n"
#define PKT_END "r1 = *(u32 *)(r1 +4)\n"
#define LOOKUP "r1 = map[fd:0] ll\n*(u32 *)(r10 -4) = 0\nr2 = r10\nr2 += -4\n"             \
	"call bpf_map_lookup_elem\n"
#define MV LOOKUP "if r0 == 0 goto out\nr1 = r0\n"
#define MVN LOOKUP "r1 = r0\n"		/* (a hash map: NULL until checked) */
#define MH "r1 = map[fd:0] ll\n"
#define ARRAY "-- maps\narray key=4 value=32 entries=1\n"
#define HASH "-- maps\nhash key=4 value=32 entries=4\n"
/* r2 = a u64 read from an array's value (r1 points to it): a number, as the kernel reads it,
 * whatever the program stored there; r6 = the context */
#define VAL64 "r6 = r1\n" MV "r2 = *(u64 *)(r1 +0)\n"
/* r2 = 8 bytes of the stack that held a spilled pointer, one of them overwritten: the kernel
 * reads a number (STACK_MISC), this analysis TOP (a value that may be a pointer) */
#define TOP2 "r2 = r10\n*(u64 *)(r10 -8) = r2\nr3 = 0\n*(u8 *)(r10 -8) = r3\n"          \
	"r2 = *(u64 *)(r10 -8)\n"
#define CASE(ptr, op, maps) "-- asm\n" ptr op "out: r0 = 0\nexit\n-- type\nxdp\n" maps

int main(void)
{
	static const struct {
		const char *name, *text;
		uint8_t want;
		const char *reason;
	} t[] = {
		/* the stack: no subtraction, not even of a constant */
		{ "stack_sub_imm", CASE(STK, "r1 -= 8\n", ARRAY), UNSAFE,
		  "R1 subtraction from stack pointer prohibited" },
		{ "stack_sub_reg", CASE(STK, "r2 = 8\nr1 -= r2\n", ARRAY), UNSAFE,
		  "R1 subtraction from stack pointer prohibited" },
		{ "stack_sub_neg", CASE(STK, "r1 -= -8\n", ARRAY), UNSAFE,
		  "subtraction from stack pointer prohibited" },
		{ "stack_add_neg", CASE(STK, "r1 += -8\n", ARRAY), SAFE, NULL },
		{ "stack_add_reg", CASE(STK, "r2 = -8\nr1 += r2\n", ARRAY), SAFE, NULL },
		{ "stack_scalar_plus", CASE(STK, "r2 = -8\nr2 += r1\n", ARRAY), SAFE, NULL },
		/* every pointer: operators other than + and - */
		{ "stack_and", CASE(STK, "r1 &= -8\n", ARRAY), UNSAFE,
		  "R1 bitwise operator &= on pointer prohibited" },
		{ "ctx_or", CASE(CTX, "r1 |= 1\n", ARRAY), UNSAFE,
		  "R1 bitwise operator |= on pointer prohibited" },
		{ "pkt_xor", CASE(PKT, "r1 ^= 1\n", ARRAY), UNSAFE,
		  "R1 bitwise operator ^= on pointer prohibited" },
		{ "value_mul", CASE(MV, "r1 *= 2\n", ARRAY), UNSAFE,
		  "R1 pointer arithmetic with *= operator prohibited" },
		{ "stack_lsh", CASE(STK, "r1 <<= 1\n", ARRAY), UNSAFE,
		  "R1 pointer arithmetic with <<= operator prohibited" },
		{ "ctx_rsh", CASE(CTX, "r1 >>= 1\n", ARRAY), UNSAFE,
		  "R1 pointer arithmetic with >>= operator prohibited" },
		{ "stack_arsh", CASE(STK, "r1 s>>= 1\n", ARRAY), UNSAFE,
		  "R1 pointer arithmetic with s>>= operator prohibited" },
		{ "pkt_div", CASE(PKT, "r1 /= 2\n", ARRAY), UNSAFE,
		  "R1 pointer arithmetic with /= operator prohibited" },
		{ "stack_mod", CASE(STK, "r1 %= 3\n", ARRAY), UNSAFE,
		  "R1 pointer arithmetic with %= operator prohibited" },
		{ "scalar_times_ptr", CASE(STK, "r2 = 8\nr2 *= r1\n", ARRAY), UNSAFE,
		  "R2 pointer arithmetic with *= operator prohibited" },
		/* a scalar less a pointer; a pointer plus a pointer; a pointer less a pointer */
		{ "scalar_minus_ptr", CASE(CTX, "r2 = 8\nr2 -= r1\n", ARRAY), UNSAFE,
		  "R2 tried to subtract pointer from scalar" },
		{ "ptr_plus_ptr", CASE(PKT, "r2 = r10\nr1 += r2\n", ARRAY), UNSAFE,
		  "R1 pointer += pointer prohibited" },
		{ "ptr_minus_ptr", CASE(MH, "r2 = r10\nr1 -= r2\n", ARRAY), SAFE, NULL },
		{ "ptr_minus_self", CASE(STK, "r2 = r1\nr1 -= r2\n", ARRAY), SAFE, NULL },
		/* 32-bit: only subtraction (and a copy) */
		{ "stack_add32", CASE(STK, "w1 += 8\n", ARRAY), UNSAFE,
		  "R1 32-bit pointer arithmetic prohibited" },
		{ "scalar_add32_ptr", CASE(STK, "w2 = 1\nw2 += w1\n", ARRAY), UNSAFE,
		  "R2 32-bit pointer arithmetic prohibited" },
		{ "scalar_and32_ptr", CASE(STK, "w2 = 1\nw2 &= w1\n", ARRAY), UNSAFE,
		  "R2 32-bit pointer arithmetic prohibited" },
		{ "stack_sub32", CASE(STK, "w1 -= 8\n", ARRAY), SAFE, NULL },
		{ "scalar_sub32_ptr", CASE(STK, "w2 = 1\nw2 -= w1\n", ARRAY), SAFE, NULL },
		{ "pkt_end_sub32", CASE(PKT_END, "w1 -= 8\n", ARRAY), SAFE, NULL },
		{ "ctx_mov32", CASE(CTX, "w1 = w1\n", ARRAY), SAFE, NULL },
		/* what gives a scalar of a pointer */
		{ "stack_neg", CASE(STK, "r1 = -r1\n", ARRAY), SAFE, NULL },
		{ "stack_be64", CASE(STK, "r1 = be64 r1\n", ARRAY), SAFE, NULL },
		{ "stack_movsx", CASE(STK, "r1 = (s32)r1\n", ARRAY), SAFE, NULL },
		/* types without arithmetic */
		{ "pkt_end_add", CASE(PKT_END, "r1 += 1\n", ARRAY), UNSAFE,
		  "R1 pointer arithmetic on pkt_end prohibited" },
		{ "scalar_plus_pkt_end", CASE(PKT_END, "r2 = 1\nr2 += r1\n", ARRAY), UNSAFE,
		  "R2 pointer arithmetic on pkt_end prohibited" },
		{ "map_add", CASE(MH, "r1 += 8\n", ARRAY), UNSAFE,
		  "R1 pointer arithmetic on map_ptr prohibited" },
		{ "map_sub0", CASE(MH, "r1 -= 0\n", ARRAY), UNSAFE,
		  "R1 pointer arithmetic on map_ptr prohibited" },
		{ "map_add0", CASE(MH, "r1 += 0\n", ARRAY), SAFE, NULL },
		{ "map_add0_reg", CASE(MH, "r2 = 0\nr1 += r2\n", ARRAY), SAFE, NULL },
		/* NULL not yet ruled out */
		{ "maybe_null_add", CASE(MVN, "r1 += 8\n", HASH), UNSAFE,
		  "R1 pointer arithmetic on map_value_or_null prohibited, null-check it first" },
		{ "maybe_null_and", CASE(MVN, "r1 &= 8\n", HASH), UNSAFE,
		  "null-check it first" },
		{ "maybe_null_sub32", CASE(MVN, "w1 -= 8\n", HASH), SAFE, NULL },
		{ "maybe_null_minus_ptr", CASE(MVN, "r2 = r10\nr1 -= r2\n", HASH), SAFE, NULL },
		{ "checked_add", CASE(MV, "r1 += 8\n", HASH), SAFE, NULL },
		/* offsets of 2^29 and more */
		{ "stack_big", CASE(STK, "r1 += 536870912\n", ARRAY), UNSAFE,
		  "math between fp pointer and 536870912 is not allowed" },
		{ "stack_big_neg", CASE(STK, "r1 += -536870912\n", ARRAY), UNSAFE,
		  "math between fp pointer and -536870912 is not allowed" },
		{ "stack_big_reg", CASE(STK, "r2 = 536870912\nr1 += r2\n", ARRAY), UNSAFE,
		  "math between fp pointer and 536870912 is not allowed" },
		{ "stack_just_below", CASE(STK, "r1 += 536870911\n", ARRAY), SAFE, NULL },
		{ "stack_twice", CASE(STK, "r1 += 536870000\nr1 += 536870000\n", ARRAY), UNSAFE,
		  "fp pointer offset 1073740000 is not allowed" },
		{ "ctx_big", CASE(CTX, "r1 += 536870912\n", ARRAY), UNSAFE,
		  "math between ctx pointer and 536870912 is not allowed" },
		{ "pkt_unbounded", CASE("r3 = *(u32 *)(r1 +16)\nr1 = *(u32 *)(r1 +0)\n",
					"r3 <<= 32\nr3 s>>= 32\nr1 += r3\n", ARRAY),
		  UNSAFE, "value -2147483648 makes pkt pointer be out of bounds" },
		/* a u64 read from a map value is a number: unbounded, no pointer takes it; bounded
		 * first, every pointer does (a pointer stored there first included) */
		{ "value_u64_plus_stack", CASE(VAL64, "r3 = r10\nr3 += r2\n", ARRAY), UNSAFE,
		  "math between fp pointer and register with unbounded min value is not allowed" },
		{ "value_u64_plus_pkt", CASE(VAL64, "r3 = *(u32 *)(r6 +0)\nr3 += r2\n", ARRAY),
		  UNSAFE, "math between pkt pointer and register with unbounded min value" },
		{ "value_u64_plus_value", CASE(VAL64, "r1 += r2\n", ARRAY), UNSAFE,
		  "math between map_value pointer and register with unbounded min value" },
		{ "value_u64_minus_stack", CASE(VAL64, "r3 = r10\nr2 -= r3\n", ARRAY), UNSAFE,
		  "math between fp pointer and register with unbounded min value" },
		{ "value_u64_masked_plus_stack",
		  CASE(VAL64, "r2 &= 7\nr3 = r10\nr3 += -8\nr3 += r2\n", ARRAY), SAFE, NULL },
		{ "value_u64_masked_plus_value", CASE(VAL64, "r2 &= 24\nr1 += r2\n", ARRAY), SAFE,
		  NULL },
		{ "value_u64_and", CASE(VAL64, "r2 &= 1\nr2 += 1\nr2 <<= 3\n", ARRAY), SAFE, NULL },
		{ "value_fp_stored_masked",
		  CASE(VAL64, "r3 = r10\n*(u64 *)(r1 +8) = r3\nr2 = *(u64 *)(r1 +8)\nr2 &= 7\n"
		       "r3 += -8\nr3 += r2\n", ARRAY), SAFE, NULL },
		{ "value_fp_stored_deref",
		  CASE(VAL64, "r3 = r10\n*(u64 *)(r1 +8) = r3\nr2 = *(u64 *)(r1 +8)\n"
		       "r2 = *(u64 *)(r2 -8)\n", ARRAY), UNSAFE, "R2 is not a known pointer" },
		/* a value that may be a pointer (TOP: r2 of TOP2) added to a pointer: refused,
		 * whichever it is (the kernel reads a number it cannot bound); subtracted from one,
		 * which the kernel takes of two pointers: unsupported; other operators refused */
		{ "top_plus_stack", CASE(TOP2, "r4 = r10\nr4 += r2\n", ARRAY), UNSAFE,
		  "math between fp pointer and register with unbounded min value" },
		{ "stack_plus_top", CASE(TOP2, "r4 = r10\nr2 += r4\n", ARRAY), UNSAFE,
		  "R2 pointer += pointer prohibited" },
		{ "top_plus_value", CASE(TOP2 "r7 = r2\n" MV, "r1 += r7\n", ARRAY), UNSAFE,
		  "math between map_value pointer and register with unbounded min value" },
		{ "top_plus_pkt", CASE(TOP2 "r1 = *(u32 *)(r1 +0)\n", "r1 += r2\n", ARRAY), UNSAFE,
		  "math between pkt pointer and register with unbounded min value" },
		{ "top_plus_map", CASE(TOP2 MH, "r1 += r2\n", ARRAY), UNSAFE,
		  "R1 pointer arithmetic on map_ptr prohibited" },
		{ "top_minus_stack", CASE(TOP2, "r4 = r10\nr4 -= r2\n", ARRAY), UNSUPPORTED,
		  "may be a pointer or a number" },
		{ "top_and_stack", CASE(TOP2, "r4 = r10\nr4 &= r2\n", ARRAY), UNSAFE,
		  "R4 bitwise operator &= on pointer prohibited" },
		{ "top_lsh_stack", CASE(TOP2, "r4 = r10\nr4 <<= r2\n", ARRAY), UNSAFE,
		  "R4 pointer arithmetic with <<= operator prohibited" },
	};
	/* what a loader without CAP_PERFMON refuses: a pointer stored anywhere but the stack
	 * (check_mem_access's is_pointer_value), judged by the kernel asked as such a loader */
	static const struct {
		const char *name, *text, *reason;
	} unpriv[] = {
		{ "leak_fp_into_map", CASE(MV, "r2 = r10\n*(u64 *)(r1 +0) = r2\n", ARRAY),
		  "R2 leaks addr into map" },
		{ "leak_ctx_into_map", CASE("r6 = r1\n" MV, "*(u64 *)(r1 +0) = r6\n", ARRAY),
		  "R6 leaks addr into map" },
		{ "leak_value_atomic", CASE(MV, "r2 = r1\nlock *(u64 *)(r1 +0) += r2\n", ARRAY),
		  "R2 leaks addr into mem" },
	};
	bool kernel = verdict_case_kernel("the kernel's verdicts");

	for (size_t k = 0; k < sizeof(unpriv) / sizeof(unpriv[0]); k++) {
		struct verdict_opts vo = { .sz = sizeof(vo), .unprivileged = true, .kernel = kernel };
		struct verdict_opts po = { .sz = sizeof(vo), .kernel = kernel };
		char name[64];

		verdict_case_file(unpriv[k].name, unpriv[k].text, &vo, UNSAFE, unpriv[k].reason,
				  AGREE);
		/* (privileged, as the kernel here: stored, and safe) */
		snprintf(name, sizeof(name), "%s_privileged", unpriv[k].name);
		verdict_case_file(name, unpriv[k].text, &po, SAFE, NULL, AGREE);
	}

	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct verdict_opts vo = { .sz = sizeof(vo), .kernel = kernel };

		verdict_case_file(t[k].name, t[k].text, &vo, t[k].want, t[k].reason, AGREE);
	}
	return check_done("test_ptr_alu");
}
