/* The campaign in worker processes.
 *
 * The parent hands each worker a batch of program numbers over its socket (wire.h) and counts
 * the outcomes as they come back.  Each worker shows, on a page shared with the parent, which
 * program it is on, in which phase and since when; the watchdog kills a worker that stays too
 * long in one phase.  A worker that dies or is killed is replaced; its program is run again
 * alone in a fresh worker, and if that dies too, the program is saved as a crash finding with
 * the worker's stderr.  The rest of its batch goes back in the queue.
 */
#define _GNU_SOURCE
#include "fuzz/campaign_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz/wire.h"
#include "util/clock.h"
#include "util/sbuf.h"

static const char *phase_name(uint32_t ph)
{
	return ph == PH_GEN ? "generate" : ph == PH_ANALYZE ? "analyze" : ph == PH_CHECK ? "check" :
	       ph == PH_ORACLES ? "z3/kernel" : "idle";
}

/* Outcomes wait in out and go to the parent together: one write per FLUSH_OUTCOMES programs
 * or FLUSH_SECONDS (two system calls and a parent wake-up per program cost about 40 µs).  A
 * worker that dies loses what it had not sent: those programs are run again. */
#define FLUSH_OUTCOMES 16
#define FLUSH_SECONDS 0.05

/* The worker: batches in, one outcome per program out, until the socket closes. */
static void worker_main(struct campaign *c, int fd, struct watch *w)
{
	struct evaluator ev = { .c = c };
	struct sbuf sb = SBUF_INIT, out = SBUF_INIT;
	unsigned pending = 0;
	double first = 0;

	for (;;) {
		uint32_t hdr[2];
		uint64_t range[2];

		if (wire_recv_all(fd, hdr, sizeof(hdr)) || hdr[0] != WMSG_BATCH ||
		    hdr[1] != sizeof(range) || wire_recv_all(fd, range, sizeof(range)))
			break;
		for (uint64_t i = range[0]; i < range[1]; i++) {
			struct outcome oc;
			int err = campaign_eval_program(&ev, i, &oc, w);
			bool found;

			if (err)
				_exit(3);	/* out of memory: the parent treats it as a crash */
			sbuf_reset(&sb);
			wire_pack_outcome(&sb, &oc);
			found = oc.nocc > 0;	/* findings go at once: saved as soon as found */
			campaign_outcome_free(&oc);
			if (sb.oom || wire_frame(&out, WMSG_OUTCOME, sb.buf, sb.len))
				_exit(4);
			if (!pending++)
				first = wall_s();
			if ((pending >= FLUSH_OUTCOMES || wall_s() - first >= FLUSH_SECONDS || found) &&
			    wire_flush(fd, &out))
				_exit(4);
			if (!out.len)
				pending = 0;
		}
		if (wire_frame(&out, WMSG_BATCH_DONE, range, sizeof(range)) || wire_flush(fd, &out))
			break;
		pending = 0;
	}
	_exit(0);	/* no atexit handlers, no leak check of the parent's heap */
}

struct worker {
	pid_t pid;
	clockid_t cpu;		/* its CPU-time clock, read by the watchdog */
	bool has_cpu;
	int fd;
	int log_fd;		/* the worker's stderr, a file the parent reads after a death */
	struct watch *w;
	bool busy;
	uint64_t a, b;		/* the batch */
	uint64_t next;		/* next program expected from it */
	bool confirm;		/* the batch is one program being run again alone */
	bool killed_hang;	/* the watchdog killed it */
	uint64_t seq;		/* the watch's phase (seq) the watchdog saw last ... */
	double cpu_at;		/* ... and the worker's CPU time when it first saw it */
	uint32_t hang_phase;
	uint8_t *buf;		/* bytes received, not yet a whole message */
	size_t len, cap;
};

struct pool {
	struct campaign *c;
	struct worker *w;
	unsigned n;
	/* batches to hand out before new numbers: re-runs and the rest of a dead worker's batch */
	struct { uint64_t a, b; bool confirm; } *q;
	size_t nq, capq;
	struct watch *pages;
	bool draining;		/* no new numbers */
};

static int queue_push(struct pool *p, uint64_t a, uint64_t b, bool confirm, bool front)
{
	if (a >= b)
		return 0;
	if (p->nq == p->capq) {
		size_t nc = p->capq ? p->capq * 2 : 8;
		void *nq = realloc(p->q, nc * sizeof(*p->q));

		if (!nq)
			return -ENOMEM;
		p->q = nq;
		p->capq = nc;
	}
	if (front) {
		memmove(&p->q[1], &p->q[0], p->nq * sizeof(*p->q));
		p->q[0].a = a;
		p->q[0].b = b;
		p->q[0].confirm = confirm;
	} else {
		p->q[p->nq].a = a;
		p->q[p->nq].b = b;
		p->q[p->nq].confirm = confirm;
	}
	p->nq++;
	return 0;
}

static int spawn(struct pool *p, unsigned k)
{
	struct worker *wk = &p->w[k];
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	/* a fresh log per worker life: a report belongs to the program that caused it */
	if (wk->log_fd >= 0 && ftruncate(wk->log_fd, 0)) {
		/* a longer log only costs reading time */
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(sv[0]);
		close(sv[1]);
		return err;
	}
	if (pid == 0) {
		/* Only this worker's own socket stays open: the parent's ends of the others
		 * must close when the parent closes them, or their workers never see EOF. */
		for (unsigned j = 0; j < p->n; j++)
			if (p->w[j].fd >= 0)
				close(p->w[j].fd);
		close(sv[0]);
		/* the lock is the parent's: a worker outliving it must not hold the directory */
		if (p->c->lock_fd >= 0)
			close(p->c->lock_fd);
		if (wk->log_fd >= 0)
			dup2(wk->log_fd, 2);
		signal(SIGINT, SIG_IGN);	/* the terminal's Ctrl-C is for the parent */
		signal(SIGTERM, SIG_IGN);
		signal(SIGPIPE, SIG_DFL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(0);
		worker_main(p->c, sv[1], wk->w);
		_exit(0);
	}
	close(sv[1]);
	wk->pid = pid;
	wk->has_cpu = !clock_getcpuclockid(pid, &wk->cpu);
	wk->fd = sv[0];
	wk->busy = false;
	wk->len = 0;
	wk->killed_hang = false;
	wk->w->phase = PH_IDLE;
	p->c->st.workers++;
	return 0;
}

static int assign(struct pool *p, unsigned k)
{
	struct worker *wk = &p->w[k];
	uint64_t a, b, range[2];
	bool confirm = false;
	int err;

	if (p->nq) {
		a = p->q[0].a;
		b = p->q[0].b;
		confirm = p->q[0].confirm;
		memmove(&p->q[0], &p->q[1], (p->nq - 1) * sizeof(*p->q));
		p->nq--;
	} else if (p->draining || campaign_stopping(p->c) || !campaign_next_batch(p->c, &a, &b)) {
		return 0;
	}
	range[0] = a;
	range[1] = b;
	wk->a = a;
	wk->b = b;
	wk->next = a;
	wk->confirm = confirm;
	wk->busy = true;
	err = wire_send_msg(wk->fd, WMSG_BATCH, range, sizeof(range));
	/* a worker that died before taking it is noticed by poll; the batch goes back then */
	return err == -EPIPE || err == -ECONNRESET ? 0 : err;
}

static char *read_log(int fd)
{
	struct stat sb;
	off_t start;
	char *buf;
	ssize_t r;
	size_t want;

	if (fd < 0 || fstat(fd, &sb) || sb.st_size <= 0)
		return NULL;
	/* the end of a sanitizer report is the least useful part; keep its start */
	want = sb.st_size > 65536 ? 65536 : (size_t)sb.st_size;
	start = 0;
	buf = malloc(want + 1);
	if (!buf)
		return NULL;
	r = pread(fd, buf, want, start);
	if (r <= 0) {
		free(buf);
		return NULL;
	}
	buf[r] = '\0';
	return buf;
}

/* A crash finding for program index: regenerated here, with what the dead worker left. */
static void crash_finding(struct campaign *c, uint64_t index, uint32_t phase, int status,
			  bool hang, char *log)
{
	struct pipeline_result pr = { 0 };
	struct gen_src src;
	struct gen_knobs def = gen_knobs_default();
	struct finding f = { 0 };
	struct outcome oc = { 0 };
	struct occurrence occ;

	gen_src_init_seed(&src, fuzz_program_seed(c->o.seed, index));
	pr.gen_err = phase == PH_GEN ? -1 : gen_program(&pr.gp, &src, c->o.knobs ? c->o.knobs : &def);
	f.kind = FIND_CRASH;
	campaign_set_origin(&f, c, index);
	f.prog_type = BPF_PROG_TYPE_XDP;
	snprintf(f.strategy, sizeof(f.strategy), "%s", campaign_strategy_name(c->o.strategy));
	snprintf(f.phase, sizeof(f.phase), "%s", phase_name(phase));
	finding_crash_class(f.crash, sizeof(f.crash), status, hang, log);
	f.log = log;
	if (!pr.gen_err) {
		f.insns = malloc(pr.gp.len * sizeof(*f.insns));
		f.maps = calloc(pr.gp.map_cnt ? pr.gp.map_cnt : 1, sizeof(*f.maps));
		if (f.insns && f.maps) {
			memcpy(f.insns, pr.gp.insns, pr.gp.len * sizeof(*f.insns));
			f.len = pr.gp.len;
			memcpy(f.maps, pr.gp.maps, pr.gp.map_cnt * sizeof(*f.maps));
			f.map_cnt = pr.gp.map_cnt;
			if (finding_maps_own(f.maps, f.map_cnt))	/* (the finding's own) */
				f.len = 0;
			f.prog_type = pr.gp.prog_type;
		}
	}
	f.input = calloc(GEN_INPUT_LEN, 1);
	f.input_len = f.input ? GEN_INPUT_LEN : 0;
	f.helper = calloc(1, 1);
	snprintf(f.text, sizeof(f.text), "the %s phase %s on program %" PRIu64 ": %s",
		 phase_name(phase), hang ? "hung" : "died", index, f.crash);
	finding_signature(&f, NULL);
	oc.index = index;
	occ.kind = FIND_CRASH;
	occ.sig = f.sig.full;
	occ.f = &f;
	oc.occ = &occ;
	oc.nocc = f.len ? 1 : 0;	/* a program the generator cannot rebuild is not saved */
	if (!f.len)
		c->st.found[FIND_CRASH]++;
	campaign_consume(c, &oc);
	finding__free(&f);
	pipeline_result__free(&pr);
}

/* A worker is gone: find out why, and what happens to its batch. */
static int handle_death(struct pool *p, unsigned k)
{
	struct worker *wk = &p->w[k];
	struct campaign *c = p->c;
	int status = 0, err = 0;
	uint32_t phase = wk->killed_hang ? wk->hang_phase : wk->w->phase;
	bool was_busy = wk->busy && wk->next < wk->b;
	/* the program in flight, from the shared page: outcomes travel in groups, so programs
	 * [next, cur) may be done but unreported (they run again) */
	uint64_t cur = wk->w->index;
	bool started = cur >= wk->next && cur < wk->b && phase != PH_IDLE;

	while (waitpid(wk->pid, &status, 0) < 0 && errno == EINTR)
		;
	close(wk->fd);
	wk->fd = -1;
	wk->pid = 0;
	c->st.workers--;
	if (was_busy && !started) {
		/* killed from outside between two programs: nobody to blame */
		err = queue_push(p, wk->next, wk->b, false, true);
	} else if (was_busy && wk->confirm) {
		crash_finding(c, cur, phase, status, wk->killed_hang, read_log(wk->log_fd));
	} else if (was_busy) {
		/* run it again alone; a crash that needs the programs before it is counted as
		 * unconfirmed, not saved */
		err = queue_push(p, cur + 1, wk->b, false, true);
		if (!err)
			err = queue_push(p, cur, cur + 1, true, true);
		if (!err && cur > wk->next)
			err = queue_push(p, wk->next, cur, false, true);
	}
	wk->busy = false;
	if (!err && !(c->o.stop && *c->o.stop >= 2) && !c->err)
		err = spawn(p, k);
	return err;
}

static int handle_msgs(struct pool *p, unsigned k)
{
	struct worker *wk = &p->w[k];
	size_t off = 0;
	int err = 0;

	while (wk->len - off >= 8) {
		uint32_t hdr[2];
		struct wire_reader r;

		memcpy(hdr, wk->buf + off, sizeof(hdr));
		if (wk->len - off - 8 < hdr[1])
			break;
		r.p = wk->buf + off + 8;
		r.end = r.p + hdr[1];
		r.bad = false;
		if (hdr[0] == WMSG_OUTCOME) {
			struct outcome oc;

			if ((err = wire_unpack_outcome(&r, p->c, &oc)))
				break;
			wk->next = oc.index + 1;
			campaign_consume(p->c, &oc);
			/* counted once the program is done (not when its findings could not be
			 * saved: a resume runs it again) */
			if (wk->confirm && oc.index == wk->a &&
			    done_set_next_gap(&p->c->done, oc.index) > oc.index)
				p->c->st.unconfirmed++;
			campaign_outcome_free(&oc);
		} else if (hdr[0] == WMSG_BATCH_DONE) {
			wk->busy = false;
		} else {
			err = -EPROTO;
			break;
		}
		off += 8 + hdr[1];
	}
	memmove(wk->buf, wk->buf + off, wk->len - off);
	wk->len -= off;
	return err;
}

static int read_worker(struct pool *p, unsigned k, bool *dead)
{
	struct worker *wk = &p->w[k];

	*dead = false;
	for (;;) {
		ssize_t r;

		if (wk->cap - wk->len < 65536) {
			size_t nc = wk->cap ? wk->cap * 2 : 262144;
			uint8_t *nb = realloc(wk->buf, nc);

			if (!nb)
				return -ENOMEM;
			wk->buf = nb;
			wk->cap = nc;
		}
		r = recv(wk->fd, wk->buf + wk->len, wk->cap - wk->len, MSG_DONTWAIT);
		if (r > 0) {
			wk->len += (size_t)r;
			continue;
		}
		if (r == 0) {
			*dead = true;
			break;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			break;
		*dead = true;	/* ECONNRESET */
		break;
	}
	return handle_msgs(p, k);
}

/* Kills workers stuck in one phase.  Every phase's limit is CPU time where the worker's CPU
 * clock can be read: a loaded machine slows a worker down but does not make it use more CPU,
 * so whether a program is a hang does not depend on what else runs.  The analyzer has
 * o.timeout; the generator and the checks, whose work is bounded by step budgets, ten times
 * that (at least 30 s); the oracles (Z3 stops itself at its budget, the kernel's verifier at
 * its 1M instructions, both in the worker's own CPU time) that and 4 s per second of Z3
 * budget and 60 s.  A worker stuck without using the CPU is caught by the wall clock at ten
 * times its phase's limit, at least 30 s.  A phase's CPU time counts from the first time the
 * watchdog sees it (the watch's seq; a poll, at most 100 ms, after it began): the worker does
 * not read its own CPU clock at each phase, a system call four times a program.  (At load 19 a Z3 phase of 9 s of CPU took over
 * 98 s of wall time and was killed as a hang when the oracles' limit was wall time.) */
static void watchdog(struct pool *p)
{
	double t = wall_s(), slow = p->c->o.timeout * 10 > 30 ? p->c->o.timeout * 10 : 30;

	for (unsigned k = 0; k < p->n; k++) {
		struct worker *wk = &p->w[k];
		uint32_t ph = wk->w->phase;
		double limit = ph == PH_ORACLES ?
			       slow + 4 * (p->c->o.z3_budget > 0 ? p->c->o.z3_budget : 2) + 60 : slow;
		bool hung;

		if (!wk->pid || !wk->busy || wk->killed_hang || ph == PH_IDLE)
			continue;
		if (ph == PH_ANALYZE)
			limit = p->c->o.timeout;
		if (wk->has_cpu) {
			double cpu = clock_s(wk->cpu);

			if (wk->w->seq != wk->seq) {
				wk->seq = wk->w->seq;
				wk->cpu_at = cpu;
			}
			hung = cpu - wk->cpu_at > limit ||
			       t - wk->w->since > (10 * limit > 30 ? 10 * limit : 30);
		} else
			hung = t - wk->w->since > limit;
		if (hung) {
			wk->killed_hang = true;
			wk->hang_phase = ph;
			kill(wk->pid, SIGKILL);
		}
	}
}

static bool any_busy(const struct pool *p)
{
	for (unsigned k = 0; k < p->n; k++)
		if (p->w[k].pid && p->w[k].busy)
			return true;
	return false;
}

static int open_log(const struct campaign *c, unsigned k)
{
	char path[4200];
	int fd;

	if (c->o.crashes) {
		snprintf(path, sizeof(path), "%s/.worker-%u.log", c->o.crashes, k);
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	} else {
		snprintf(path, sizeof(path), "/tmp/bpfscev-worker-XXXXXX");
		fd = mkostemp(path, O_APPEND | O_CLOEXEC);
		if (fd >= 0)
			unlink(path);
	}
	return fd;
}

int campaign_run_pool(struct campaign *c)
{
	struct pool p = { .c = c, .n = c->o.jobs };
	double drain_since = 0;
	int err = 0;

	p.w = calloc(p.n, sizeof(*p.w));
	p.pages = mmap(NULL, p.n * sizeof(struct watch), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!p.w || p.pages == MAP_FAILED) {
		free(p.w);
		return diag_set(c->d, ENOMEM, "out of memory");
	}
	for (unsigned k = 0; k < p.n; k++) {
		p.w[k].fd = -1;
		p.w[k].w = &p.pages[k];
		p.w[k].log_fd = open_log(c, k);
	}
	for (unsigned k = 0; k < p.n && !err; k++)
		err = spawn(&p, k);
	while (!err) {
		struct pollfd pfd[256];
		unsigned idx[256], np = 0;
		bool hard_stop = c->o.stop && *c->o.stop >= 2;

		if (campaign_stopping(c) && !p.draining) {
			p.draining = true;
			drain_since = wall_s();
		}
		/* the queue (re-runs) is worked off even while draining: they hold findings */
		for (unsigned k = 0; k < p.n && !err; k++)
			if (p.w[k].pid && !p.w[k].busy && !hard_stop &&
			    (!p.draining || p.nq))
				err = assign(&p, k);
		if (err)
			break;
		if (!any_busy(&p))
			break;
		if (hard_stop || (p.draining && wall_s() - drain_since > 5 && !p.nq))
			break;
		for (unsigned k = 0; k < p.n && np < 256; k++)
			if (p.w[k].pid) {
				pfd[np].fd = p.w[k].fd;
				pfd[np].events = POLLIN;
				idx[np++] = k;
			}
		if (poll(pfd, np, 100) < 0 && errno != EINTR) {
			err = diag_set(c->d, errno, "poll: %s", strerror(errno));
			break;
		}
		for (unsigned i = 0; i < np && !err; i++) {
			bool dead = false;

			if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			err = read_worker(&p, idx[i], &dead);
			if (!err && dead)
				err = handle_death(&p, idx[i]);
		}
		if (err && !c->err)
			diag_set(c->d, -err, "worker pool: %s", strerror(-err));
		watchdog(&p);
		campaign_report_progress(c, false);
	}
	/* Stop everyone: closing the socket ends an idle worker; a busy one is killed (its
	 * unfinished programs are not marked done, so a resume runs them again). */
	for (unsigned k = 0; k < p.n; k++) {
		if (!p.w[k].pid)
			continue;
		if (p.w[k].busy)
			kill(p.w[k].pid, SIGKILL);
		close(p.w[k].fd);
		while (waitpid(p.w[k].pid, NULL, 0) < 0 && errno == EINTR)
			;
		c->st.workers--;
	}
	for (unsigned k = 0; k < p.n; k++) {
		if (p.w[k].log_fd >= 0)
			close(p.w[k].log_fd);
		free(p.w[k].buf);
		if (c->o.crashes) {
			char path[4200];

			snprintf(path, sizeof(path), "%s/.worker-%u.log", c->o.crashes, k);
			unlink(path);
		}
	}
	munmap(p.pages, p.n * sizeof(struct watch));
	free(p.w);
	free(p.q);
	return err;
}
