package org.mpcache.master.space;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's Dynamic Space Manager (paper Section 2): collects the localized-data space each
 * finished job used, by job type and input size, predicts the initial Input/Localized split for a
 * new job ({@link SpaceHistory} states the rule), and keeps the history in a file across restarts.
 *
 * <p>A history file that cannot be parsed does not stop the master: the error, naming the file and
 * line, is logged, the file is moved aside to {@code <name>.corrupt} for inspection, and the
 * manager starts with an empty history.
 *
 * <p>Thread-safe: every method synchronizes on the manager (RPC handlers record and predict
 * concurrently; {@link #save()} holds the lock while writing, which is short for this small file).
 */
public final class DynamicSpaceManager {
  private static final Logger LOG = LoggerFactory.getLogger(DynamicSpaceManager.class);

  /** The history file; {@code null} for a history kept in memory only. */
  private final Path file;
  private final SpaceHistory history;

  private DynamicSpaceManager(Path file, SpaceHistory history) {
    this.file = file;
    this.history = history;
  }

  /**
   * Opens the history at {@code file}: loads it if present, starts empty if absent or corrupt.
   *
   * @throws IOException if the file exists but cannot be read at all (permissions, I/O error)
   */
  public static DynamicSpaceManager open(Path file, double defaultLocalizedFraction)
      throws IOException {
    SpaceHistory history = new SpaceHistory(defaultLocalizedFraction);
    try {
      SpaceHistoryFile.load(file, history);
      LOG.info("Loaded space history of {} entries from {}", history.size(), file);
    } catch (NoSuchFileException e) {
      LOG.info("No space history at {}; starting empty", file);
    } catch (SpaceHistoryFile.FormatException e) {
      Path aside = file.resolveSibling(file.getFileName() + ".corrupt");
      LOG.error("Corrupt space history {}; moved to {} and starting empty", e.getMessage(),
          aside);
      Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
      history = new SpaceHistory(defaultLocalizedFraction);
    }
    return new DynamicSpaceManager(file, history);
  }

  /**
   * A manager whose history lives in memory only and is lost when the master stops ({@link #save()}
   * does nothing).
   */
  public static DynamicSpaceManager inMemory(double defaultLocalizedFraction) {
    return new DynamicSpaceManager(null, new SpaceHistory(defaultLocalizedFraction));
  }

  /** Records a finished job's localized-data space. */
  public synchronized void record(String jobType, long inputBytes, long localizedBytes) {
    history.record(jobType, inputBytes, localizedBytes);
  }

  /** The initial split for a new job on a slave cache of {@code cacheCapacityBytes}. */
  public synchronized SpaceSplit predict(String jobType, long inputBytes,
      long cacheCapacityBytes) {
    return history.predict(jobType, inputBytes, cacheCapacityBytes);
  }

  /** Writes the history to its file atomically; does nothing for an in-memory manager. */
  public synchronized void save() throws IOException {
    if (file != null) {
      SpaceHistoryFile.save(history, file);
    }
  }

  /** How many (job type, bucket) entries are known. */
  public synchronized int size() {
    return history.size();
  }
}
