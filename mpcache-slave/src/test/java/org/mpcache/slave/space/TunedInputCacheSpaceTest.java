package org.mpcache.slave.space;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;

/**
 * The Input Cache's room on the tuner: a block's directory is read under the slave's space lock,
 * as the Localized Cache's excluder asks for it with no lock held while fills change the tuner.
 */
class TunedInputCacheSpaceTest {

  @Test
  void dirOf_whileTheSpaceLockIsHeld_waitsForIt() throws Exception {
    Object lock = new Object();
    TunedInputCacheSpace space = new TunedInputCacheSpace(new DynamicSpaceTuner(
        List.of(SsdVolume.split("/ssd", 1000, 100, 0.4, 0.2)), DynamicSpaceTuner.DEFAULT_GUARD),
        lock);
    BlockKey block = new BlockKey("BP-1", 1, 1);
    assertEquals("/ssd", space.tryReserve(block, 100, null));
    CompletableFuture<String> dir;
    synchronized (lock) {
      dir = CompletableFuture.supplyAsync(() -> space.dirOf(block));
      Thread.sleep(200);
      assertFalse(dir.isDone(), "read the tuner while another thread held the space lock");
    }
    assertEquals("/ssd", dir.get(10, TimeUnit.SECONDS));
  }
}
