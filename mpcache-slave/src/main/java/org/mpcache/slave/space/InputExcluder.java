package org.mpcache.slave.space;

/**
 * Decides which cached input data leaves the SSD when localized data needs Dynamic Pool units and
 * none is free (mpCache paper, Section 2.1: cached input is excluded "using the same scheme described
 * in Section 2.2"). The slave implements it by asking the master's Replace Arbitrator which whole
 * datasets to drop; the {@link DynamicSpaceTuner} accounts the space the plan frees, and the slave
 * deletes the blocks before it hands the space to a writer.
 *
 * <p>Implementations are called by the tuner on the caller's thread, under whatever lock the caller
 * holds while it calls the tuner.
 */
public interface InputExcluder {

  /** The excluder that never drops input: localized data then gets only free pool units. */
  InputExcluder NEVER = (dir, bytesWanted) -> EvictionPlan.NONE;

  /**
   * Plans the exclusion of cached input from one SSD directory.
   *
   * @param dir the SSD directory that needs room
   * @param bytesWanted how many more bytes the Localized Cache of {@code dir} needs
   * @return the blocks to drop; blocks that are not cached in {@code dir} free nothing there
   */
  EvictionPlan planExclusion(String dir, long bytesWanted);
}
