package org.mpcache.slave.space;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.mpcache.common.BlockKey;

/**
 * The slave's Dynamic Space Tuner (mpCache paper, Section 2.1): the accounting of every SSD directory
 * of a node, each split into an Input Cache, a Dynamic Pool of block-sized units and a Localized
 * Cache. Space is reserved before it is written, and a reservation either fits or is refused, so the
 * bytes used in a directory never exceed its capacity.
 *
 * <p>Design note, after the paper: when an input block does not fit in the Input Cache, free pool
 * units are lent to it; when localized data outgrows the Localized Cache, free pool units are lent to
 * it, and when none is free, cached input is excluded from the pool through an {@link InputExcluder}
 * (the master's replacement scheme decides which whole datasets go). Units lent to the Localized Cache
 * come back when its used ratio (used over own capacity plus lent units) falls below the guard value.
 * The paper withdraws all lent units at that point; here the units still holding localized data stay
 * lent, which keeps the capacity invariant and differs from the paper only while the remaining data
 * exceeds the Localized Cache's own capacity. Units lent to the Input Cache return as soon as its
 * blocks fit without them. A new reservation goes to the directory with the most room for it (the
 * first such directory on a tie), so a node's directories fill evenly.
 *
 * <p>A directory out of service ({@link #setInService}: its SSD failed) takes no new reservation
 * and lends no unit, and its figures leave the node's totals ({@link #snapshot()}); what it holds
 * stays accounted to it until released, and counts again when it returns.
 *
 * <p>Holds (the Dynamic Space Manager's loop: its history by job type and input size, paper Section 2): when a job starts with a predicted
 * localized need, {@link #holdForLocalized} lends free pool units to the Localized Cache up front,
 * so the Input Cache cannot take the room the job is expected to need. A hold takes free units only:
 * it never reclaims units lent to the Input Cache and never excludes cached input, because the
 * prediction is a guess, while the paper excludes input only for localized data actually written
 * (that still happens, through {@link #shortfall}). While a hold lasts, the guard rule returns
 * lent units only down to the held ones; once it is released, the guard rule applies as before.
 *
 * <p>Pure and deterministic: no I/O, no threads, no clock. Not thread-safe: the slave calls it under
 * its own lock; the {@link InputExcluder} runs between two such calls, with no lock held.
 */
public final class DynamicSpaceTuner {

  /** The used ratio below which lent units return, as in the paper's implementation. */
  public static final double DEFAULT_GUARD = 0.5;

  private final List<Volume> volumes;
  private final Map<String, Volume> byDir;
  private final Map<BlockKey, InputEntry> inputs = new HashMap<>();
  private final double guard;
  /** The localized bytes each holder claimed when its hold began. */
  private final Map<String, Long> claims = new HashMap<>();

  /**
   * @param layout the node's SSD directories, at least one, with distinct directories
   * @param guard the Localized Cache used ratio, in (0, 1], below which lent pool units return
   */
  public DynamicSpaceTuner(List<SsdVolume> layout, double guard) {
    Objects.requireNonNull(layout, "layout");
    if (layout.isEmpty()) {
      throw new IllegalArgumentException("At least one SSD directory is needed");
    }
    if (!(guard > 0 && guard <= 1)) {
      throw new IllegalArgumentException("Guard value must be in (0, 1]: " + guard);
    }
    this.guard = guard;
    this.volumes = new ArrayList<>(layout.size());
    this.byDir = new LinkedHashMap<>();
    for (SsdVolume v : layout) {
      Volume volume = new Volume(v);
      if (byDir.put(v.dir(), volume) != null) {
        throw new IllegalArgumentException("SSD directory listed twice: " + v.dir());
      }
      volumes.add(volume);
    }
  }

  /**
   * Reserves room for an input block before it is written, lending free pool units to the Input
   * Cache when its own space is full. A refusal means the caller must ask the master for a
   * replacement (or not cache the block); this method never excludes anything. The block counts as
   * filling until {@link #inputFilled}: while its bytes arrive, no exclusion releases its space.
   *
   * @throws IllegalStateException if the block already holds a reservation
   */
  public Reservation reserveInput(BlockKey block, long bytes) {
    return reserveInput(block, bytes, volumes, true);
  }

  /**
   * Reserves room for an input block in one given directory: a block a previous run left there,
   * accounted again when the slave starts. Pool units are lent as by {@link #reserveInput}. The
   * block is complete, so it may be excluded at once.
   *
   * @throws IllegalArgumentException if the directory is not one of the node's SSD directories
   * @throws IllegalStateException if the block already holds a reservation
   */
  public Reservation reserveInputIn(String dir, BlockKey block, long bytes) {
    return reserveInput(block, bytes, List.of(volume(dir)), false);
  }

  private Reservation reserveInput(BlockKey block, long bytes, List<Volume> candidates,
      boolean filling) {
    Objects.requireNonNull(block, "block");
    requirePositive(bytes, "input block size");
    if (inputs.containsKey(block)) {
      throw new IllegalStateException("Input block " + block + " is already reserved");
    }
    Volume best = null;
    for (Volume v : candidates) {
      if (v.inService && v.inputRoomWithPool() >= bytes && (best == null
          || v.inputRoomWithPool() > best.inputRoomWithPool())) {
        best = v;
      }
    }
    if (best == null) {
      return Reservation.denied(List.of());
    }
    best.inputUsed += bytes;
    best.lendToInput(Math.max(best.lentToInput, best.unitsFor(best.inputUsed
        - best.layout.inputCacheCapacity())));
    inputs.put(block, new InputEntry(best, bytes, filling));
    return Reservation.granted(best.layout.dir(), List.of());
  }

  /**
   * Marks an input block's fill complete: from now on an exclusion may release its space.
   *
   * @return whether the block held a reservation
   */
  public boolean inputFilled(BlockKey block) {
    InputEntry entry = inputs.get(Objects.requireNonNull(block, "block"));
    if (entry == null) {
      return false;
    }
    inputs.put(block, new InputEntry(entry.volume, entry.bytes, false));
    return true;
  }

  /**
   * Releases an input block's space (evicted, failed to fill, or found corrupt); pool units lent to
   * the Input Cache that no block needs any more return to the pool.
   *
   * @return whether the block held a reservation
   */
  public boolean releaseInput(BlockKey block) {
    InputEntry entry = inputs.remove(Objects.requireNonNull(block, "block"));
    if (entry == null) {
      return false;
    }
    Volume v = entry.volume;
    v.inputUsed -= entry.bytes;
    v.lendToInput(v.unitsFor(v.inputUsed - v.layout.inputCacheCapacity()));
    return true;
  }

  /** The SSD directory holding an input block's reservation, or {@code null} if it has none. */
  public String inputDir(BlockKey block) {
    InputEntry entry = inputs.get(block);
    return entry == null ? null : entry.volume.layout.dir();
  }

  /**
   * Reserves room for localized data before it is written, without excluding cached input. The
   * data goes to the directory with the most Localized Cache room counting free pool units, which
   * are lent one by one as needed. When it is denied, {@link #shortfall} says whether excluding
   * cached input could make room, and {@link #reserveLocalizedExcluding} tries again after the
   * caller asked for a plan: the two steps let the caller ask the master with no lock held.
   */
  public Reservation reserveLocalized(long bytes) {
    requirePositive(bytes, "localized size");
    Volume best = null;
    for (Volume v : volumes) {
      if (v.inService && v.localizedRoomWithPool() >= bytes && (best == null
          || v.localizedRoomWithPool() > best.localizedRoomWithPool())) {
        best = v;
      }
    }
    if (best == null) {
      return Reservation.denied(List.of());
    }
    best.grantLocalized(bytes);
    return Reservation.granted(best.layout.dir(), List.of());
  }

  /**
   * The directory that could hold {@code bytes} more localized data by excluding cached input
   * (the one with the most room so), and how many bytes of input it would have to exclude; empty
   * when excluding every input block lent pool units would not make enough room anywhere.
   */
  public Optional<Shortfall> shortfall(long bytes) {
    requirePositive(bytes, "localized size");
    Volume candidate = null;
    for (Volume v : volumes) {
      long potential = v.localizedRoomWithPool() + v.lentToInput * v.layout.unitBytes();
      if (v.inService && potential >= bytes && (candidate == null
          || potential > candidate.localizedRoomWithPool()
              + candidate.lentToInput * candidate.layout.unitBytes())) {
        candidate = v;
      }
    }
    return candidate == null ? Optional.empty() : Optional.of(new Shortfall(
        candidate.layout.dir(), Math.max(0, bytes - candidate.localizedRoomWithPool())));
  }

  /**
   * Carries out an exclusion {@code plan} for directory {@code dir} (its blocks stop being
   * accounted, but for blocks still filling, whose bytes are still arriving, and blocks readers
   * hold open ({@code held}), whose bytes stay on the SSD until the last reader closes: so the
   * SSD's bytes never exceed its capacity), then reserves {@code bytes} there, or in any
   * directory that has the room by now.
   */
  public Reservation reserveLocalizedExcluding(long bytes, String dir, EvictionPlan plan,
      Predicate<BlockKey> held) {
    requirePositive(bytes, "localized size");
    Volume target = volume(dir);
    List<BlockKey> excluded = new ArrayList<>();
    for (BlockKey block : plan.blocks()) {
      InputEntry entry = inputs.get(block);
      if (entry != null && !entry.filling && !held.test(block) && releaseInput(block)) {
        excluded.add(block);
      }
    }
    if (target.inService && target.localizedRoomWithPool() >= bytes) {
      target.grantLocalized(bytes);
      return Reservation.granted(target.layout.dir(), excluded);
    }
    Reservation elsewhere = reserveLocalized(bytes);
    return elsewhere.reserved() ? Reservation.granted(elsewhere.dir(), excluded)
        : Reservation.denied(excluded);
  }

  /** A directory that lacks room for localized data unless {@code lacking} bytes of input go. */
  public record Shortfall(String dir, long lacking) {
  }

  /**
   * Releases localized bytes of one directory (files deleted, a grant shrunk to what was written, or
   * an application finished). If the Localized Cache's used ratio is then below the guard value, the
   * pool units lent to it that hold no localized data return to the pool.
   *
   * @throws IllegalArgumentException if the directory is unknown or holds fewer localized bytes
   */
  public void releaseLocalized(String dir, long bytes) {
    Volume v = volume(dir);
    if (bytes < 0 || bytes > v.localizedUsed) {
      throw new IllegalArgumentException("Cannot release " + bytes + " localized bytes of " + dir
          + ": it holds " + v.localizedUsed);
    }
    v.localizedUsed -= bytes;
    v.applyGuard(guard);
  }

  /**
   * Lends free pool units to the Localized Cache up front so that it has room for {@code bytes} more
   * localized data of one job ({@code holder}, e.g. an application id) besides the bytes other
   * holders claimed, and keeps them lent until {@link #releaseHold}. Units go one by one to the
   * directory with the most free units. The estimate errs high: the bytes other holders claimed
   * count in full, also once their data is written and counts as used.
   *
   * @return the bytes of the units the hold keeps lent; less than asked when the pool has too few
   *     free units, zero when the Localized Cache already has the room
   * @throws IllegalStateException if the holder already holds room
   */
  public long holdForLocalized(String holder, long bytes) {
    Objects.requireNonNull(holder, "holder");
    if (bytes < 0) {
      throw new IllegalArgumentException("The held localized size must not be negative: " + bytes);
    }
    if (claims.containsKey(holder)) {
      throw new IllegalStateException(holder + " already holds localized room");
    }
    long room = 0;
    for (Volume v : volumes) {
      if (v.inService) {
        room += v.localizedRoom();
      }
    }
    for (long claimed : claims.values()) {
      room -= claimed;
    }
    claims.put(holder, bytes);
    long lent = 0;
    while (room < bytes) {
      Volume most = null;
      for (Volume v : volumes) {
        if (v.inService && v.freeUnits() > 0
            && (most == null || v.freeUnits() > most.freeUnits())) {
          most = v;
        }
      }
      if (most == null) {
        break;
      }
      most.holds.merge(holder, 1, Integer::sum);
      most.lendToLocalized(most.lentToLocalized + 1);
      room += most.layout.unitBytes();
      lent += most.layout.unitBytes();
    }
    return lent;
  }

  /**
   * Ends a hold: its units stop being kept, and the guard rule returns those the Localized Cache's
   * used ratio no longer justifies. Does nothing for a holder without a hold.
   */
  public void releaseHold(String holder) {
    claims.remove(holder);
    for (Volume v : volumes) {
      if (v.holds.remove(holder) != null) {
        v.applyGuard(guard);
      }
    }
  }

  /** The bytes of pool units a holder's hold keeps lent to the Localized Cache. */
  public long heldBytes(String holder) {
    long bytes = 0;
    for (Volume v : volumes) {
      bytes += (long) v.holds.getOrDefault(holder, 0) * v.layout.unitBytes();
    }
    return bytes;
  }

  /**
   * Pool units moved since the tuner was made: every unit lent to a cache and every unit returned
   * to the pool counts once, over all directories.
   */
  public long poolMoves() {
    long moves = 0;
    for (Volume v : volumes) {
      moves += v.unitMoves;
    }
    return moves;
  }

  /** The node's figures: the sum over its directories in service. */
  public SpaceSnapshot snapshot() {
    SpaceSnapshot sum = SpaceSnapshot.EMPTY;
    for (Volume v : volumes) {
      if (v.inService) {
        sum = sum.plus(v.snapshot());
      }
    }
    return sum;
  }

  /**
   * Takes a directory out of service or puts it back (see the class comment).
   *
   * @return whether that changed its state
   * @throws IllegalArgumentException if the directory is not one of the node's SSD directories
   */
  public boolean setInService(String dir, boolean inService) {
    Volume v = volume(dir);
    boolean changed = v.inService != inService;
    v.inService = inService;
    return changed;
  }

  /**
   * Whether a directory is in service.
   *
   * @throws IllegalArgumentException if the directory is not one of the node's SSD directories
   */
  public boolean inService(String dir) {
    return volume(dir).inService;
  }

  /**
   * One directory's figures.
   *
   * @throws IllegalArgumentException if the directory is not one of the node's SSD directories
   */
  public SpaceSnapshot snapshot(String dir) {
    return volume(dir).snapshot();
  }

  private Volume volume(String dir) {
    Volume v = byDir.get(dir);
    if (v == null) {
      throw new IllegalArgumentException("Not an SSD directory of this node: " + dir
          + " (known: " + byDir.keySet() + ")");
    }
    return v;
  }

  private static void requirePositive(long bytes, String what) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("The " + what + " must be positive: " + bytes);
    }
  }

  /** An input block's reservation, and whether its bytes are still arriving. */
  private record InputEntry(Volume volume, long bytes, boolean filling) {
  }

  /** One directory's mutable accounting. */
  private static final class Volume {
    final SsdVolume layout;
    boolean inService = true;
    long inputUsed;
    long localizedUsed;
    int lentToInput;
    int lentToLocalized;
    long unitMoves;
    /** Units kept lent to the Localized Cache, by holder. */
    final Map<String, Integer> holds = new HashMap<>();

    Volume(SsdVolume layout) {
      this.layout = layout;
    }

    int held() {
      int units = 0;
      for (int u : holds.values()) {
        units += u;
      }
      return units;
    }

    /**
     * The guard rule: when the Localized Cache's used ratio (used over own capacity plus lent
     * units) is below the guard value, the lent units that hold no localized data and that no hold
     * keeps return to the pool.
     */
    void applyGuard(double guard) {
      long ownAndLent = layout.localizedCacheCapacity() + lentToLocalized * layout.unitBytes();
      if (lentToLocalized > 0 && localizedUsed < guard * ownAndLent) {
        lendToLocalized(Math.min(lentToLocalized,
            Math.max(unitsFor(localizedUsed - layout.localizedCacheCapacity()), held())));
      }
    }

    long localizedRoom() {
      return layout.localizedCacheCapacity() + lentToLocalized * layout.unitBytes()
          - localizedUsed;
    }

    /** Sets the units lent to the Input Cache, counting each unit lent or returned. */
    void lendToInput(int units) {
      unitMoves += Math.abs(units - lentToInput);
      lentToInput = units;
    }

    /** Sets the units lent to the Localized Cache, counting each unit lent or returned. */
    void lendToLocalized(int units) {
      unitMoves += Math.abs(units - lentToLocalized);
      lentToLocalized = units;
    }

    int freeUnits() {
      return layout.poolUnits() - lentToInput - lentToLocalized;
    }

    /** The number of units that cover {@code bytes} (none for zero or less). */
    int unitsFor(long bytes) {
      return bytes <= 0 ? 0 : (int) ((bytes + layout.unitBytes() - 1) / layout.unitBytes());
    }

    long inputRoomWithPool() {
      return layout.inputCacheCapacity() + (long) (lentToInput + freeUnits()) * layout.unitBytes()
          - inputUsed;
    }

    long localizedRoomWithPool() {
      return layout.localizedCacheCapacity()
          + (long) (lentToLocalized + freeUnits()) * layout.unitBytes() - localizedUsed;
    }

    /** Adds localized bytes the caller checked fit, lending the units they need. */
    void grantLocalized(long bytes) {
      localizedUsed += bytes;
      lendToLocalized(Math.max(lentToLocalized,
          unitsFor(localizedUsed - layout.localizedCacheCapacity())));
    }

    SpaceSnapshot snapshot() {
      long unit = layout.unitBytes();
      return new SpaceSnapshot(layout.capacity(), layout.inputCacheCapacity(), inputUsed,
          layout.poolUnits() * unit, lentToInput * unit, lentToLocalized * unit,
          layout.localizedCacheCapacity(), localizedUsed);
    }
  }
}
