/*
 * divergence_replay.c: the unit behind a divergence found in two trace
 * files (divergence_replay.h). The architecture is checked against the
 * traces' fingerprint (a stream of another configuration would name units
 * the run did not have), a C model is loaded with the configuration
 * stream (model_new configures every unit; nothing is stepped), and
 * divergence_unit_write and divergence_unit_names ask it for the unit, as
 * a cosim run asks the model it steps (tb/engine_cosim.c).
 */
#include "divergence_replay.h"

#include <inttypes.h>

#include "divergence_unit.h"
#include "model.h"

int divergence_replay_unit(FILE *f, const lockstep_divergence *d, const arch_config *arch,
                           const engine_config *c, char *names, size_t namesz, char *msg, size_t msgsz) {
  uint64_t fp = arch_config_fingerprint(arch);
  model_error err;
  model_gc_view g;
  names[0] = 0;
  if ((d->fp_model && d->fp_model != fp) || (d->fp_rtl && d->fp_rtl != fp)) {
    snprintf(msg, msgsz, "the traces are of architecture fingerprint 0x%016" PRIx64 ", the configuration's is 0x%016"
             PRIx64, d->fp_model ? d->fp_model : d->fp_rtl, fp);
    return -1;
  }
  model *m = model_new(arch, c->stream, c->stream_len, &err);
  if (!m) {
    snprintf(msg, msgsz, "the C model refuses the configuration stream: %s", err.msg);
    return -1;
  }
  divergence_unit_write(f, d, m, arch, c);
  divergence_unit_names(d, model_gc_view_get(m, -1, -1, 0, &g) ? 0 : g.gc, names, namesz);
  model_free(m);
  return 0;
}
