/* Analysis time against trip count: the same loop (r0 += 3; r1 += 1; if r1 < N) at N = 10,
 * 10^3, 10^6 and 2^40 must cost the same to analyze, while the kernel's verifier walks every
 * iteration.  Prints, side by side in one run, the median analysis time and the kernel's
 * processed instructions and verification time (where bpf() works; log level "stats"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "casefile/casefile.h"
#include "oracle/kernel/kernel.h"
#include "scev/scev.h"
#include "util/clock.h"
#include "util/heap.h"

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}
/* The row's kernel columns: processed instructions, verification time, verdict (the program
 * loaded as prog_type: 0, its own; a socket filter when it has none). */
static void kernel_columns(int kernel, struct ebpf_object *obj, uint32_t prog_type,
			   struct diag *d)
{
	struct kernel_prog_opts ko = { .sz = sizeof(ko), .log_level = 4, .prog_type = prog_type };
	struct kernel_prog *kp = NULL;

	if (!kernel) {
		printf(" - | - | bpf() refused |\n");
		return;
	}
	if (kernel_prog__load(&kp, obj, &obj->progs[0], &ko, d) == 0) {
		printf(" %ld | %ld | %s |\n", kp->processed, kp->verification_usec,
		       kp->accepted ? "accepted" : kp->message);
		kernel_prog__free(kp);
	} else {
		printf(" - | - | %s |\n", d->msg);
	}
}


/* The median of 201 analyses of obj's first program, in µs; *cp the last one's claims. */
static double median_analysis_us(struct ebpf_object *obj, struct claim_prog *cp, struct diag *d)
{
	struct scev_opts so = { .sz = sizeof(so) };
	double times[201];

	for (int r = 0; r < 201; r++) {
		double t0 = wall_s();

		scev_analyze(cp, &obj->progs[0], obj->maps, obj->map_cnt, &so, d);
		times[r] = 1e6 * (wall_s() - t0);
		if (r < 200)
			claim_prog__free(cp);
	}
	qsort(times, 201, sizeof(double), cmp_d);
	return times[100];
}

/* The other loop forms (issue 15): one row per form and size, the claimed trip of the loop of
 * that kind beside the kernel's cost. */
static int form_row_maps(const char *form, uint64_t n, const char *text, bool kernel,
			 struct ebpf_map_def *maps, size_t nmaps)
{
	struct ebpf_object *obj = NULL;
	struct claim_prog cp;
	char claimed[64] = "none";
	double us;
	struct diag d;

	diag_clear(&d);
	if (ebpf_object__open_mem(&obj, text, strlen(text), "form", &d)) {
		fprintf(stderr, "%s\n", d.msg);
		return 1;
	}
	obj->maps = maps;	/* (the caller's: given back before the object is freed) */
	obj->map_cnt = nmaps;
	us = median_analysis_us(obj, &cp, &d);
	for (uint32_t l = 0; l < cp.nloops; l++)
		if (cp.loops[l].trip.ends_by)
			snprintf(claimed, sizeof(claimed), "no count, ends by the %s",
				 claim_trip_ender_name((enum trip_ender)cp.loops[l].trip.ends_by));
		else if (cp.loops[l].kind != LOOP_PLAIN)
			snprintf(claimed, sizeof(claimed), "%s %llu",
				 cp.loops[l].trip.kind == TRIP_EXACT ? "exact" :
				 cp.loops[l].trip.kind == TRIP_BOUNDED ? "at most" : "unknown",
				 (unsigned long long)cp.loops[l].trip.max);
	claim_prog__free(&cp);
	printf("| %s | %llu | %.1f | %s |", form, (unsigned long long)n, us, claimed);
	kernel_columns(kernel, obj, BPF_PROG_TYPE_SOCKET_FILTER, &d);
	obj->maps = NULL;
	obj->map_cnt = 0;
	ebpf_object__free(obj);
	return 0;
}

/* A row of a case file's program (its "-- type" and "-- maps"): the claimed trip of its first
 * loop of a callback's or iterator's kind ("unknown (why)" of a plain loop's unknown trip,
 * "none" without loops), beside the kernel's cost with the program's own type. */
static int case_row(const char *form, const char *n, const char *text, bool kernel)
{
	struct casefile *cf = NULL;
	struct claim_prog cp;
	char claimed[160] = "none";
	double us;
	struct diag d;

	diag_clear(&d);
	if (casefile__open_mem(&cf, text, strlen(text), form, &d)) {
		fprintf(stderr, "%s\n", d.msg);
		return 1;
	}
	us = median_analysis_us(cf->obj, &cp, &d);
	for (uint32_t l = cp.nloops; l-- > 0;) {
		const struct claim_loop *cl = &cp.loops[l];

		if (cl->trip.ends_by)
			snprintf(claimed, sizeof(claimed), "no count, ends by the %s",
				 claim_trip_ender_name((enum trip_ender)cl->trip.ends_by));
		else if (cl->trip.kind == TRIP_EXACT || cl->trip.kind == TRIP_BOUNDED)
			snprintf(claimed, sizeof(claimed), "%s %llu",
				 cl->trip.kind == TRIP_EXACT ? "exact" : "at most",
				 (unsigned long long)cl->trip.max);
		else {
			struct claim_text_buf b;

			snprintf(claimed, sizeof(claimed), "unknown (%.120s)",
				 claim_trip_reason(&cl->trip, &b));
		}
	}
	claim_prog__free(&cp);
	printf("| %s | %s | %.1f | %s |", form, n, us, claimed);
	kernel_columns(kernel, cf->obj, 0, &d);
	casefile__free(cf);
	return 0;
}

/* The forms bench_scev's other rows leave out (issue 15's cost table, a row per form): the
 * callback helpers whose trip does not come from a count (bpf_user_ringbuf_drain: at most 2^17
 * samples; bpf_find_vma: one call or none, a raw tracepoint), a timer's callback (verified
 * once as an async entry: no loop), bpf_repeat, cond_break inside a counted loop (the kernel
 * walks every iteration), and the bits iterator (bpf_iter_bits: at most 64 nr_words values). */
static int more_forms(bool kernel)
{
#define URB_CB "cb: r3 = r1\nr1 = r10\nr1 += -8\nr2 = 8\nr4 = 0\nr5 = 0\ncall bpf_dynptr_read\n" \
	"r0 = 0\nexit\n"
	static const char urb[] =
		"-- asm\nr6 = 0\n*(u64 *)(r10 -8) = r6\nr1 = map[fd:0] ll\nr2 = func cb ll\n"
		"r3 = r10\nr3 += -8\nr4 = 0\ncall bpf_user_ringbuf_drain\n"
		"r0 = *(u64 *)(r10 -8)\nexit\n" URB_CB
		"-- type\nsocket\n-- maps\nuser_ringbuf entries=4096\n";
	static const char vma[] =
		"-- asm\nr6 = *(u64 *)(r1 +0)\nr7 = 0\n*(u64 *)(r10 -8) = r7\n"
		"call bpf_get_current_task_btf\nr1 = r0\nr2 = r6\nr3 = func cb ll\nr4 = r10\n"
		"r4 += -8\nr5 = 0\ncall bpf_find_vma\nr0 = *(u64 *)(r10 -8)\nexit\n"
		"cb: r1 = *(u64 *)(r3 +0)\nr1 += 1\n*(u64 *)(r3 +0) = r1\nr0 = 0\nexit\n"
		"-- type\nraw_tp\n";
	static const char timer[] =
		"-- asm\nr2 = 0\n*(u32 *)(r10 -4) = r2\nr1 = map[fd:0] ll\nr2 = r10\nr2 += -4\n"
		"call bpf_map_lookup_elem\nif r0 == 0 goto out\nr6 = r0\nr1 = r6\nr1 += 8\n"
		"r2 = map[fd:0] ll\nr3 = 1\ncall bpf_timer_init\nr1 = r6\nr1 += 8\n"
		"r2 = func cb ll\ncall bpf_timer_set_callback\nr1 = r6\nr1 += 8\n"
		"r2 = 1000000 ll\nr3 = 0\ncall bpf_timer_start\nout: r0 = 0\nexit\n"
		"cb: r1 = *(u64 *)(r3 +0)\nr1 += 1\n*(u64 *)(r3 +0) = r1\nr0 = 0\nexit\n"
		"-- type\nsocket\n-- maps\narray key=4 value=32 entries=1 timer=8 name=t\n";
	static const char bits[] =
		"-- asm\nr6 = 0\nr1 = r10\nr1 += -24\nr2 = r10\nr2 += -8\nr3 = 1\n"
		"*(u64 *)(r10 -8) = r3\ncall bpf_iter_bits_new\nl: r1 = r10\nr1 += -24\n"
		"call bpf_iter_bits_next\nif r0 == 0 goto out\nr6 += 1\ngoto l\nout: r1 = r10\n"
		"r1 += -24\ncall bpf_iter_bits_destroy\nr0 = r6\nexit\n-- type\nsocket\n";
	static const uint64_t nrs[] = { 10, 1000, 100000 };

	if (case_row("user_ringbuf_drain", "2^17 (the kernel's cap)", urb, kernel) ||
	    case_row("find_vma (raw_tp)", "1", vma, kernel) ||
	    case_row("timer callback", "-", timer, kernel))
		return 1;
	for (size_t t = 0; t < sizeof(nrs) / sizeof(nrs[0]); t++) {
		char text[512], n[24];

		snprintf(n, sizeof(n), "%llu", (unsigned long long)nrs[t]);
		/* cond_break in a loop of n: the loop's own test bounds it */
		snprintf(text, sizeof(text), "-- asm\nr0 = 0\nr1 = 0\nr2 = %llu ll\n"
			 "l: may_goto out\nr0 += 3\nr1 += 1\nif r1 < r2 goto l\nout: exit\n"
			 "-- type\nsocket\n", (unsigned long long)nrs[t]);
		if (case_row("cond_break in a counted loop", n, text, kernel))
			return 1;
	}
	for (size_t t = 0; t < sizeof(nrs) / sizeof(nrs[0]) && ebpf_kfunc_btf_available(); t++) {
		char text[512], n[24];

		snprintf(n, sizeof(n), "%llu", (unsigned long long)nrs[t]);
		/* bpf_repeat(n): the iterator's values not read */
		snprintf(text, sizeof(text), "-- asm\nr7 = 0\nr1 = r10\nr1 += -8\nr2 = 0\n"
			 "r3 = %llu\ncall bpf_iter_num_new\nl: r1 = r10\nr1 += -8\n"
			 "call bpf_iter_num_next\nif r0 == 0 goto d\nr7 += 1\ngoto l\n"
			 "d: r1 = r10\nr1 += -8\ncall bpf_iter_num_destroy\nr0 = r7\nexit\n"
			 "-- type\nsocket\n", (unsigned long long)nrs[t]);
		if (case_row("bpf_repeat (iter_num)", n, text, kernel))
			return 1;
	}
	if (ebpf_kfunc_btf_available() && case_row("bpf_iter_bits (one word)", "1 bit", bits,
						     kernel))
		return 1;
#undef URB_CB
	return 0;
}

static int form_row(const char *form, uint64_t n, const char *text, bool kernel)
{
	return form_row_maps(form, n, text, kernel, NULL, 0);
}

static int forms(bool kernel)
{
	static const uint64_t nrs[] = { 10, 1000, 100000, 1u << 23 };

	printf("\n| form | n | bpfscev analysis (µs, median of 201) | claimed trip | kernel processed insns | kernel verification (µs) | kernel verdict |\n");
	printf("|---|---:|---:|---|---:|---:|---|\n");
	for (size_t t = 0; t < sizeof(nrs) / sizeof(nrs[0]); t++) {
		char text[512];

		/* bpf_loop(n, cb, &fp[-8], 0), the callback summing its index into fp[-8] */
		snprintf(text, sizeof(text), "r6 = 0\n*(u64 *)(r10 -8) = r6\nr1 = %llu\n"
			 "r2 = func cb ll\nr3 = r10\nr3 += -8\nr4 = 0\ncall bpf_loop\n"
			 "r0 = *(u64 *)(r10 -8)\nexit\ncb: r3 = *(u64 *)(r2 +0)\nr3 += r1\n"
			 "*(u64 *)(r2 +0) = r3\nr0 = 0\nexit\n", (unsigned long long)nrs[t]);
		if (form_row("bpf_loop", nrs[t], text, kernel))
			return 1;
	}
	/* bpf_for(i, 0, n) summing the values: the open-coded iterator's loop (kind iter_num) */
	for (size_t t = 0; t < sizeof(nrs) / sizeof(nrs[0]) && ebpf_kfunc_btf_available(); t++) {
		char text[512];

		snprintf(text, sizeof(text), "r7 = 0\nr1 = r10\nr1 += -8\nr2 = 0\nr3 = %llu\n"
			 "call bpf_iter_num_new\nl: r1 = r10\nr1 += -8\ncall bpf_iter_num_next\n"
			 "if r0 == 0 goto d\nr1 = *(u32 *)(r0 +0)\nr7 += r1\ngoto l\n"
			 "d: r1 = r10\nr1 += -8\ncall bpf_iter_num_destroy\nr0 = r7\nexit\n",
			 (unsigned long long)nrs[t]);
		if (form_row("bpf_for (iter_num)", nrs[t], text, kernel))
			return 1;
	}
	/* bpf_for_each_map_elem over an array (every index) and a hash of n entries, the
	 * callback summing key + value into fp[-8] */
	for (size_t t = 0; t < 3; t++) {
		for (int hash = 0; hash < 2; hash++) {
			struct ebpf_map_def m = { .type = hash ? BPF_MAP_TYPE_HASH : BPF_MAP_TYPE_ARRAY,
						  .key_size = 4, .value_size = 8,
						  .max_entries = (uint32_t)nrs[t] };

			snprintf(m.name, sizeof(m.name), "m");
			if (form_row_maps(hash ? "for_each_map_elem (hash)"
					       : "for_each_map_elem (array)", nrs[t],
					  "r6 = 0\n*(u64 *)(r10 -8) = r6\nr1 = map[fd:0] ll\n"
					  "r2 = func cb ll\nr3 = r10\nr3 += -8\nr4 = 0\n"
					  "call bpf_for_each_map_elem\nr0 = *(u64 *)(r10 -8)\nexit\n"
					  "cb: r0 = *(u32 *)(r2 +0)\nr5 = *(u64 *)(r3 +0)\n"
					  "r0 += r5\nr5 = *(u64 *)(r4 +0)\nr5 += r0\n"
					  "*(u64 *)(r4 +0) = r5\nr0 = 0\nexit\n", kernel, &m, 1))
				return 1;
		}
	}
	/* a loop whose only exit is may_goto (cond_break), counting its iterations; n is the
	 * count-based budget, which the timed x86-64 JIT does not keep to */
	if (form_row("may_goto", 1u << 23, "r0 = 0\nl: may_goto out\nr0 += 1\ngoto l\nout: exit\n",
		     kernel))
		return 1;
	return 0;
}

int main(void)
{
	static const uint64_t trips[] = { 10, 1000, 100000, 1000000, 1ull << 40 };
	bool kernel = kernel_available(NULL, 0);

	heap_tune();
	printf("| trip count | bpfscev analysis (µs, median of 201) | claimed trip | kernel processed insns | kernel verification (µs) | kernel verdict |\n");
	printf("|---:|---:|---|---:|---:|---|\n");
	for (size_t t = 0; t < sizeof(trips) / sizeof(trips[0]); t++) {
		char text[256];
		struct ebpf_object *obj = NULL;
		struct diag d;
		double times[201];
		struct claim_prog cp;
		struct scev_opts so = { .sz = sizeof(so) };
		char claimed[64];

		snprintf(text, sizeof(text), "r0 = 0\nr1 = 0\nr2 = %#llx ll\nl: r0 += 3\nr1 += 1\n"
			 "if r1 < r2 goto l\nexit\n", (unsigned long long)trips[t]);
		diag_clear(&d);
		if (ebpf_object__open_mem(&obj, text, strlen(text), "loop", &d)) {
			fprintf(stderr, "%s\n", d.msg);
			return 1;
		}
		for (int r = 0; r < 201; r++) {
			double t0 = wall_s();

			scev_analyze(&cp, &obj->progs[0], NULL, 0, &so, &d);
			times[r] = 1e6 * (wall_s() - t0);
			if (r < 200)
				claim_prog__free(&cp);
		}
		qsort(times, 201, sizeof(double), cmp_d);
		snprintf(claimed, sizeof(claimed), "%s %llu",
			 cp.loops[0].trip.kind == TRIP_EXACT ? "exact" : "bounded",
			 (unsigned long long)cp.loops[0].trip.max);
		claim_prog__free(&cp);
		printf("| %llu | %.1f | %s |", (unsigned long long)trips[t], times[100], claimed);
		kernel_columns(kernel, obj, BPF_PROG_TYPE_SOCKET_FILTER, &d);
		ebpf_object__free(obj);
	}
	return forms(kernel) || more_forms(kernel);
}
