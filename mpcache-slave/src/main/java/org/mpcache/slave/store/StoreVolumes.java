package org.mpcache.slave.store;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import javax.annotation.concurrent.GuardedBy;
import org.mpcache.slave.volume.VolumeHealth;
import org.mpcache.slave.volume.VolumeHealth.DirState;
import org.mpcache.slave.volume.VolumeHealth.Fault;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's SSD directories in and out of service: hears every fault and read time of the
 * {@link VolumeCheckedStorage} seam, asks the {@link VolumeHealth} policy what they mean, and when
 * a directory goes out has the store take it out ({@code takeOut}). Reads check
 * {@link #inService} without a lock.
 *
 * <p>Thread-safe: the policy is called under {@code lock}, which is never held across I/O or
 * while the store takes a directory out (that runs on the thread whose fault tipped the
 * directory, after the lock is released).
 */
final class StoreVolumes implements VolumeCheckedStorage.Listener {
  private static final Logger LOG = LoggerFactory.getLogger(StoreVolumes.class);

  private final Object lock = new Object();
  @GuardedBy("lock")
  private final VolumeHealth health;
  /** The directories out of service, as {@link Path#toString()} names them. */
  private final Set<String> out = ConcurrentHashMap.newKeySet();
  private final Consumer<Path> takeOut;

  /** @param takeOut takes a directory the policy put out of service out of the store */
  StoreVolumes(VolumeHealth health, Consumer<Path> takeOut) {
    this.health = health;
    this.takeOut = takeOut;
  }

  @Override
  public void fault(Path dir, Fault fault, String detail) {
    boolean tipped;
    synchronized (lock) {
      tipped = health.fault(dir.toString(), fault, detail);
    }
    if (!tipped) {
      LOG.debug("Fault of SSD directory {}: {}", dir, detail);
      return;
    }
    wentOut(dir);
  }

  @Override
  public void readTook(Path dir, long elapsedMs, String detail) {
    boolean tipped;
    synchronized (lock) {
      tipped = health.readTook(dir.toString(), elapsedMs, detail);
    }
    if (tipped) {
      wentOut(dir);
    }
  }

  private void wentOut(Path dir) {
    out.add(dir.toString());
    String cause = "";
    boolean all;
    synchronized (lock) {
      for (DirState s : health.states()) {
        if (s.dir().equals(dir.toString())) {
          cause = s.cause();
        }
      }
      all = health.allOut();
    }
    LOG.error("SSD directory {} is out of service until mpcache admin refresh or a restart;"
        + " its blocks are dropped: {}", dir, cause);
    if (all) {
      LOG.error("Every SSD directory is out of service: the slave caches and serves nothing,"
          + " its readers read HDFS");
    }
    takeOut.accept(dir);
  }

  /** Whether {@code dir} holds, serves and fills blocks. */
  boolean inService(Path dir) {
    return !out.contains(dir.toString());
  }

  /** The directories out of service. */
  List<String> outOfService() {
    synchronized (lock) {
      return health.outOfService();
    }
  }

  /** Puts {@code dir} back in service; returns whether it was out. */
  boolean restore(Path dir) {
    boolean was;
    synchronized (lock) {
      was = health.restore(dir.toString());
    }
    out.remove(dir.toString());
    return was;
  }

  List<DirState> states() {
    synchronized (lock) {
      return health.states();
    }
  }

  long failures() {
    synchronized (lock) {
      return health.failures();
    }
  }
}
