/* Analysis time against trip count: the same loop (r0 += 3; r1 += 1; if r1 < N) at N = 10,
 * 10^3, 10^6 and 2^40 must cost the same to analyze, while the kernel's verifier walks every
 * iteration.  Prints, side by side in one run, the median analysis time and the kernel's
 * processed instructions and verification time (where bpf() works; log level "stats"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "oracle/kernel/kernel.h"
#include "scev/scev.h"
#include "util/clock.h"
#include "util/heap.h"

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}
/* The row's kernel columns: processed instructions, verification time, verdict. */
static void kernel_columns(int kernel, struct ebpf_object *obj, struct diag *d)
{
	struct kernel_prog_opts ko = { .sz = sizeof(ko), .log_level = 4,
				       .prog_type = BPF_PROG_TYPE_SOCKET_FILTER };
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


/* The other loop forms (issue 15): one row per form and size, the claimed trip of the loop of
 * that kind beside the kernel's cost. */
static int form_row_maps(const char *form, uint64_t n, const char *text, bool kernel,
			 struct ebpf_map_def *maps, size_t nmaps)
{
	struct ebpf_object *obj = NULL;
	struct scev_opts so = { .sz = sizeof(so) };
	struct claim_prog cp;
	char claimed[64] = "none";
	double times[201];
	struct diag d;

	diag_clear(&d);
	if (ebpf_object__open_mem(&obj, text, strlen(text), "form", &d)) {
		fprintf(stderr, "%s\n", d.msg);
		return 1;
	}
	obj->maps = maps;	/* (the caller's: given back before the object is freed) */
	obj->map_cnt = nmaps;
	for (int r = 0; r < 201; r++) {
		double t0 = wall_s();

		scev_analyze(&cp, &obj->progs[0], obj->maps, obj->map_cnt, &so, &d);
		times[r] = 1e6 * (wall_s() - t0);
		if (r < 200)
			claim_prog__free(&cp);
	}
	qsort(times, 201, sizeof(double), cmp_d);
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
	printf("| %s | %llu | %.1f | %s |", form, (unsigned long long)n, times[100], claimed);
	kernel_columns(kernel, obj, &d);
	obj->maps = NULL;
	obj->map_cnt = 0;
	ebpf_object__free(obj);
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
		kernel_columns(kernel, obj, &d);
		ebpf_object__free(obj);
	}
	return forms(kernel);
}
