package org.mpcache.master.status;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.common.proto.AdminProtos.EvictionRecordProto;
import org.mpcache.common.proto.AdminProtos.SlaveBlocksProto;
import org.mpcache.common.proto.AdminProtos.VerdictCountProto;
import org.mpcache.master.arbitrator.CacheDecision;

/**
 * Turns a dataset's status into the sentences {@code mpcache admin explain} prints: how much of it
 * is cached and where, the last admission verdict in words, the last eviction and its cause, and
 * how the policy ranks it (as Hadoop's {@code CacheReplicationMonitor.findReasonForNotCaching}
 * does for HDFS cache directives). Stateless.
 */
final class Explanations {

  private Explanations() {
  }

  static List<String> of(DatasetStatusProto d, List<String> decommissioning) {
    List<String> out = new ArrayList<>();
    String id = d.getDatasetId();
    StringBuilder where = new StringBuilder();
    for (SlaveBlocksProto s : d.getSlavesList()) {
      where.append(where.length() == 0 ? "" : ", ").append(s.getSlaveId()).append(" (")
          .append(s.getBlocks()).append(s.getBlocks() == 1 ? " block" : " blocks")
          .append(decommissioning.contains(s.getSlaveId()) ? ", decommissioning" : "")
          .append(')');
    }
    if (d.getCachedBlocks() == 0) {
      out.add("Dataset " + id + " is not cached (0 of " + d.getSizeBlocks() + " blocks).");
    } else {
      out.add("Dataset " + id + " is " + (d.getFull() ? "fully" : "partly") + " cached: "
          + d.getCachedBlocks() + " of " + d.getSizeBlocks() + " blocks, " + d.getCachedBytes()
          + " bytes, on " + where + (d.getFull() ? "; its Full bonus applies." : "."));
    }
    if (d.getFillingBlocks() > 0) {
      out.add(d.getFillingBlocks() + " more block(s) admitted and being filled.");
    }
    if (d.hasLastVerdict()) {
      out.add("Last admission verdict, " + time(d.getLastVerdict().getTimeMs()) + " for a block "
          + "on " + d.getLastVerdict().getSlaveId()
          + (d.getLastVerdict().getJobId().isEmpty() ? "" : " read by "
          + d.getLastVerdict().getJobId()) + ": " + d.getLastVerdict().getReason() + ", "
          + verdict(d.getLastVerdict().getReason()) + ".");
      StringBuilder counts = new StringBuilder();
      for (VerdictCountProto v : d.getVerdictsList()) {
        counts.append(counts.length() == 0 ? "" : ", ").append(v.getReason()).append(" x")
            .append(v.getCount());
      }
      out.add("Verdicts so far: " + counts + ".");
    } else if (d.getCachedBlocks() == 0) {
      out.add("No block of it has missed the cache yet: it was only read as hits, or every "
          + "replace request was made before the master's last restart.");
    }
    if (d.hasLastEviction()) {
      EvictionRecordProto e = d.getLastEviction();
      out.add("Last eviction, " + time(e.getTimeMs()) + ": " + e.getBlocks() + " block "
          + "replica(s), cause " + e.getCause() + " (" + cause(e.getCause())
          + (e.hasDetail() ? "; " + e.getDetail() : "") + ").");
    }
    if (d.getPinned()) {
      out.add("It is pinned (mpcache admin pin): the policy never chooses it as a victim.");
    }
    if (d.hasExpiresAtMs()) {
      out.add("Its time to live (mpcache admin ttl) runs out " + time(d.getExpiresAtMs())
          + " unless it is read before.");
    }
    if (d.hasPriority()) {
      out.add(String.format(Locale.ROOT, "The policy ranks it with priority Pr = %.6g (Fr = "
          + "%.6g); datasets with lower priority are evicted first.", d.getPriority(),
          d.getFrequency()));
    } else {
      out.add("The policy does not rank it (it has no block in the main cache)"
          + (d.getInAuxiliaryCache() ? "; the auxiliary cache remembers it, so a next access "
          + "may be admitted even when that needs an eviction." : "."));
    }
    return out;
  }

  private static String time(long ms) {
    return ms == 0 ? "at an unknown time" : "at " + Instant.ofEpochMilli(ms);
  }

  private static String verdict(String reason) {
    CacheDecision.Reason r;
    try {
      r = CacheDecision.Reason.valueOf(reason);
    } catch (IllegalArgumentException e) {
      return "a reason this master does not describe";
    }
    switch (r) {
      case ADMITTED_FREE_SPACE:
        return "admitted: the slave had room";
      case ADMITTED_BY_REPLACEMENT:
        return "admitted after evicting lower-priority datasets";
      case ADMITTED_DATASET_CACHED:
        return "admitted: the dataset already had blocks in the cache";
      case ADMITTED_BY_FORCE:
        return "admitted by an operator's prefetch -force, without the admission test";
      case REJECTED_NOT_IN_AUXILIARY_CACHE:
        return "not admitted: caching it needed room that only evicting other datasets "
            + "would make, and the dataset was new to the auxiliary cache; it is remembered "
            + "now, so its next access may be admitted";
      case REJECTED_NOT_PROFITABLE:
        return "not admitted: making room would evict datasets worth more per block "
            + "than this one (its accesses per block, against the block accesses per block "
            + "they served); each access raises its value";
      case REJECTED_TOO_LARGE:
        return "not admitted: even evicting every other dataset would not make room for it";
      case REJECTED_BY_POLICY:
        return "not admitted: the configured policy never caches";
      case REJECTED_SLAVE_DECOMMISSIONED:
        return "not admitted: the slave is being decommissioned";
      case REJECTED_NOT_INCLUDED:
        return "not admitted: an input path matches none of the admission include filters "
            + "(mpcache.master.admission.include)";
      case REJECTED_EXCLUDED:
        return "not admitted: an input path matches an admission exclude filter "
            + "(mpcache.master.admission.exclude)";
      case REJECTED_QUOTA:
        return "not admitted: caching it would put a quota past its limit (mpcache admin "
            + "report lists the quotas and their usage)";
      case REJECTED_PINNED:
        return "not admitted: only evicting pinned datasets would make room for it";
      case REJECTED_WRITE_BUDGET:
        return "not admitted: the slaves wrote more to their SSDs than the write budget "
            + "allows (mpcache.master.admission.write.budget), and while they do a dataset is "
            + "cached only when it was read before within the hour; this read is remembered, "
            + "so another within the hour may be admitted";
      case REJECTED_NOT_IN_DATASET:
        return "not admitted: the block's file lies under none of the dataset's input paths, "
            + "or the slave did not name the file (a slave older than the master)";
      default:
        return r.name();
    }
  }

  private static String cause(String cause) {
    EvictionCause c;
    try {
      c = EvictionCause.valueOf(cause);
    } catch (IllegalArgumentException e) {
      return cause;
    }
    switch (c) {
      case REPLACEMENT:
        return "evicted by the policy to make room";
      case ADMIN_EVICT:
        return "evicted by an operator";
      case DECOMMISSION:
        return "its slave is being decommissioned";
      case SLAVE_LOST:
        return "its slave expired or restarted";
      case SLAVE_DROPPED:
        return "the slave dropped it: corrupt, failed or its SSD lost";
      case STALE:
        return "HDFS no longer has the cached copy's file or generation stamp";
      case TTL_EXPIRED:
        return "its time to live (mpcache admin ttl) passed since its last read";
      default:
        return c.name();
    }
  }
}
