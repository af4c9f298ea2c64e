package org.mpcache.master.registry;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.hadoop.service.AbstractService;
import org.mpcache.common.service.Daemons;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Declares dead the slaves that stopped heartbeating: every quarter of the expiry interval it
 * expires silent slaves from the {@link SlaveRegistry} and tells a listener (the arbitrator) so
 * their blocks are forgotten. Thread-safe.
 */
public final class SlaveMonitor extends AbstractService {
  private static final Logger LOG = LoggerFactory.getLogger(SlaveMonitor.class);

  private final SlaveRegistry registry;
  private final long expiryMs;
  private final Consumer<String> onLost;
  private ScheduledExecutorService executor;

  public SlaveMonitor(SlaveRegistry registry, long expiryMs, Consumer<String> onLost) {
    super(SlaveMonitor.class.getSimpleName());
    this.registry = registry;
    this.expiryMs = expiryMs;
    this.onLost = onLost;
  }

  @Override
  protected void serviceStart() throws Exception {
    executor = Daemons.scheduler("mpcache-slave-monitor");
    long period = Math.max(1, expiryMs / 4);
    executor.scheduleWithFixedDelay(this::check, period, period, TimeUnit.MILLISECONDS);
    super.serviceStart();
  }

  /** One expiry pass; public so that tests can drive it without waiting. */
  public void check() {
    try {
      for (String id : registry.expire()) {
        LOG.warn("Slave {} sent no heartbeat for {} ms: declared dead, its blocks forgotten", id,
            expiryMs);
        onLost.accept(id);
      }
    } catch (RuntimeException e) {
      LOG.error("Slave expiry pass failed", e);
    }
  }

  @Override
  protected void serviceStop() throws Exception {
    if (executor != null) {
      executor.shutdownNow();
    }
    super.serviceStop();
  }
}
