package org.mpcache.slave.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.util.Time;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.slave.volume.VolumeHealth;

/** Opens a {@link FileBlockStore} for tests, its directories' health by the keys' defaults. */
public final class TestStores {
  private TestStores() {
  }

  /** Opens the store on the local file system ({@link BlockStorage#local()}). */
  public static FileBlockStore open(List<Path> dirs, InputCacheSpace space, int chunkSize)
      throws IOException {
    return open(BlockStorage.local(), dirs, space, chunkSize);
  }

  /** Opens the store on {@code storage}, as the slave does with its default volume keys. */
  public static FileBlockStore open(BlockStorage storage, List<Path> dirs,
      InputCacheSpace space, int chunkSize) throws IOException {
    List<String> names = new ArrayList<>();
    for (Path d : dirs) {
      names.add(d.toString());
    }
    VolumeHealth health = new VolumeHealth(names,
        SlaveConfigKeys.VOLUME_FAULTS_TOLERATED_DEFAULT,
        SlaveConfigKeys.VOLUME_FAULTS_WINDOW_MS_DEFAULT,
        SlaveConfigKeys.VOLUME_SLOW_READ_MS_DEFAULT, Time::monotonicNow, Time::now);
    return FileBlockStore.open(storage, dirs, space, chunkSize, health, Time::monotonicNow);
  }
}
