package org.mpcache.master.arbitrator;

import java.util.List;
import org.mpcache.common.BlockKey;

/**
 * What the Replace Arbitrator made of the blocks a registering slave held: the ones the slave must
 * evict, with how many for each reason, and the ones newly adopted, which are still to be checked
 * against HDFS (their file or generation stamp may have changed while the copy sat on the SSD).
 * Immutable.
 *
 * @param evict the blocks the slave must evict
 * @param adopted the blocks newly adopted into the dataset the slave recorded for them
 * @param known blocks kept because the master already knew the slave held or filled them (a
 *     re-registration after a lost connection)
 * @param unknownDataset blocks evicted because their dataset record was unusable
 * @param overCapacity blocks evicted because they passed the slave's Input Cache capacity
 */
public record Registration(List<BlockKey> evict, List<HeldBlock> adopted, int known,
    int unknownDataset, int overCapacity) {
  public Registration {
    evict = List.copyOf(evict);
    adopted = List.copyOf(adopted);
  }

  /** The blocks the master kept: known before, or adopted now. */
  public int kept() {
    return known + adopted.size();
  }
}
