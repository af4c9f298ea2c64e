package org.mpcache.master.arbitrator;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The master's one {@link DatasetRecord} per dataset, owned by the {@link PlacementIndex} beside
 * where each dataset's blocks are: the cache policy reads and updates the records it tracks (its
 * terms), and the status catalog reads and updates their operators' history. A record stays while
 * the policy tracks it or its dataset holds a block; a record the policy no longer tracks and whose
 * dataset holds nothing goes at once when operators saw nothing of it, else it is kept for them,
 * at most {@code maxDatasets} records in all (least recently read dropped first).
 *
 * <p>Not thread-safe: guarded as the index is.
 */
public final class DatasetRecords {
  private final PlacementIndex placement;
  /** Least recently read first: a read moves a record to the end. */
  private final LinkedHashMap<String, DatasetRecord> records = new LinkedHashMap<>();
  private int maxDatasets = Integer.MAX_VALUE;
  /**
   * The record looked up last, null or in {@code records}: a miss asks for its dataset's record
   * several times (the access, the admission, the block stored), a hash probe each without it.
   */
  private DatasetRecord last;

  DatasetRecords(PlacementIndex placement) {
    this.placement = placement;
  }

  /** Changes the bound on records kept for operators (reloadable); extra ones go at the next read. */
  public void setMaxDatasets(int maxDatasets) {
    if (maxDatasets < 1) {
      throw new IllegalArgumentException("maxDatasets must be at least 1: " + maxDatasets);
    }
    this.maxDatasets = maxDatasets;
  }

  /** The record of a dataset, or null. */
  public DatasetRecord get(String datasetId) {
    DatasetRecord d = last;
    if (d != null && d.id.equals(datasetId)) {
      return d;
    }
    d = records.get(datasetId);
    if (d != null) {
      last = d;
    }
    return d;
  }

  /** Drops a record from the map's view of {@link #last}, when it is the one kept. */
  private void dropped(DatasetRecord d) {
    if (last == d) {
      last = null;
    }
  }

  /** How many records there are. */
  public int size() {
    return records.size();
  }

  /**
   * A read of a dataset operators see: its record, created if new, becomes the most recently
   * read, and the records over the bound go.
   */
  public DatasetRecord read(String datasetId) {
    DatasetRecord d = records.remove(datasetId);
    if (d == null) {
      d = new DatasetRecord(datasetId);
    }
    records.put(datasetId, d);
    trim();
    return d;
  }

  /** The record of a dataset, created (as the most recently read) and the bound kept if new. */
  public DatasetRecord getOrCreate(String datasetId) {
    DatasetRecord d = get(datasetId);
    return d != null ? d : read(datasetId);
  }

  private void trim() {
    Iterator<DatasetRecord> it = records.values().iterator();
    while (records.size() > maxDatasets && it.hasNext()) {
      DatasetRecord d = it.next();
      if (!d.tracked && !placement.holds(d.id)) {
        it.remove();
        dropped(d);
      }
    }
  }

  /** The ids of the records operators have seen something of that {@code filter} accepts. */
  public List<String> seenIds(Predicate<String> filter) {
    List<String> out = new ArrayList<>();
    for (DatasetRecord d : records.values()) {
      if (d.history() != null && filter.test(d.id)) {
        out.add(d.id);
      }
    }
    out.sort(null);
    return out;
  }

  /** The record of a dataset the policy tracks, or null. */
  DatasetRecord tracked(String datasetId) {
    DatasetRecord d = get(datasetId);
    return d != null && d.tracked ? d : null;
  }

  /** The policy's record of a dataset: tracked from now with fresh terms if it was not. */
  DatasetRecord track(String datasetId, int size) {
    DatasetRecord d = get(datasetId);
    if (d == null) {
      d = new DatasetRecord(datasetId);
      records.put(datasetId, d);
    }
    if (!d.tracked) {
      d.track(size);
    }
    return d;
  }

  /**
   * The policy forgets a dataset (one that holds no block); its record goes unless operators saw
   * something of it.
   */
  void untrack(DatasetRecord d) {
    d.untrack();
    if (d.history() == null) {
      records.remove(d.id);
      dropped(d);
    }
  }

  /** Calls {@code action} on every tracked record; it must not untrack any. */
  void forEachTracked(Consumer<DatasetRecord> action) {
    for (DatasetRecord d : records.values()) {
      if (d.tracked) {
        action.accept(d);
      }
    }
  }

  /**
   * Untracks ({@link #untrack}) every tracked record {@code idle} accepts, asking it of each once,
   * in order (it may change the record it is asked about).
   */
  void untrackIf(Predicate<DatasetRecord> idle) {
    Iterator<DatasetRecord> it = records.values().iterator();
    while (it.hasNext()) {
      DatasetRecord d = it.next();
      if (d.tracked && idle.test(d)) {
        d.untrack();
        if (d.history() == null) {
          it.remove();
          dropped(d);
        }
      }
    }
  }

  /** Whether the policy tracks no dataset. */
  boolean noneTracked() {
    for (DatasetRecord d : records.values()) {
      if (d.tracked) {
        return false;
      }
    }
    return true;
  }

  /** Adds records restored from a checkpoint, tracked; their ids are not yet known. */
  void restore(List<DatasetRecord> restored) {
    last = null;
    for (DatasetRecord d : restored) {
      records.put(d.id, d);
    }
  }
}
