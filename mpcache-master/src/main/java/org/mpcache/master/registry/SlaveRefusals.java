package org.mpcache.master.registry;

import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import javax.annotation.concurrent.GuardedBy;
import org.mpcache.master.registry.SlaveAdmission.Outcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slave-master calls the master refused under {@link SlaveAdmission}: counted per reason for
 * the metrics, and logged at WARN the first time for each reason, slave id, user and address
 * (a refused slave retries every second; its repeats go to DEBUG). The most recent
 * {@value #MAX_REMEMBERED} such combinations are remembered.
 *
 * <p>Thread-safe: the counts are {@link LongAdder}s; the remembered set is guarded by its own
 * monitor, which is never held while logging.
 */
public final class SlaveRefusals {
  private static final Logger LOG = LoggerFactory.getLogger(SlaveRefusals.class);
  static final int MAX_REMEMBERED = 4096;

  private final Map<Outcome, LongAdder> counts = new EnumMap<>(Outcome.class);
  @GuardedBy("logged")
  private final Set<String> logged = new LinkedHashSet<>();

  public SlaveRefusals() {
    for (Outcome o : Outcome.values()) {
      if (o != Outcome.ACCEPTED) {
        counts.put(o, new LongAdder());
      }
    }
  }

  /**
   * Counts and logs one refusal.
   *
   * @param call the method refused, e.g. {@code registerSlave}
   * @return the message to refuse the call with: the call, the slave id and the verdict's reason
   */
  public String refused(String call, String slaveId, SlaveAdmission.Caller caller,
      SlaveAdmission.Verdict verdict) {
    counts.get(verdict.outcome()).increment();
    String message = call + " of slave " + slaveId + " refused (" + verdict.outcome() + "): "
        + verdict.message();
    String key = verdict.outcome() + " " + slaveId + " " + caller.user() + " " + caller.remote();
    boolean first;
    synchronized (logged) {
      first = logged.add(key);
      if (first && logged.size() > MAX_REMEMBERED) {
        Iterator<String> oldest = logged.iterator();
        oldest.next();
        oldest.remove();
      }
    }
    if (first) {
      LOG.warn(message);
    } else {
      LOG.debug(message);
    }
    return message;
  }

  /** Calls refused for {@code outcome} since the master started. */
  public long count(Outcome outcome) {
    LongAdder c = counts.get(outcome);
    return c == null ? 0 : c.sum();
  }

  /** Calls refused for any reason since the master started. */
  public long total() {
    long sum = 0;
    for (LongAdder c : counts.values()) {
      sum += c.sum();
    }
    return sum;
  }
}
