package org.mpcache.slave.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.mpcache.slave.store.BlockFill;

/**
 * The fills clients are writing through to this slave, by fill id, with the time each was last
 * written to so that fills a client abandoned (it died, or stopped reading) can be reaped.
 *
 * <p>Thread-safe: a concurrent map; callers lock a {@link Session} while they use its fill.
 */
final class FillTable {

  /** One fill and when it was last touched; lock it while writing to the fill. */
  static final class Session {
    final BlockFill fill;
    long lastTouched;

    Session(BlockFill fill, long now) {
      this.fill = fill;
      this.lastTouched = now;
    }
  }

  private final AtomicLong nextId = new AtomicLong(1);
  private final Map<Long, Session> sessions = new ConcurrentHashMap<>();

  long add(BlockFill fill, long now) {
    long id = nextId.getAndIncrement();
    sessions.put(id, new Session(fill, now));
    return id;
  }

  Session get(long id) {
    return sessions.get(id);
  }

  Session remove(long id) {
    return sessions.remove(id);
  }

  /** Removes and returns the sessions not touched since {@code deadline}. */
  List<Session> removeIdleSince(long deadline) {
    List<Session> out = new ArrayList<>();
    sessions.entrySet().removeIf(e -> {
      synchronized (e.getValue()) {
        if (e.getValue().lastTouched < deadline) {
          out.add(e.getValue());
          return true;
        }
        return false;
      }
    });
    return out;
  }

  int size() {
    return sessions.size();
  }
}
