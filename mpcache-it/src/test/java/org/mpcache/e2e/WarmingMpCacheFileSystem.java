package org.mpcache.e2e;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.mpcache.hdfs.MpCacheFileSystem;

/**
 * mpCache's FileSystem with every file read once before it is opened, so that the stream a test
 * gets serves every complete block from a slave's cache. The warming read goes through a
 * FileSystem of its own, closed before the test's open: closing waits for the fills under way
 * (up to the cache deadline), which the reader's threads hand to their senders and do not wait
 * for.
 */
public class WarmingMpCacheFileSystem extends MpCacheFileSystem {
  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    if (getFileStatus(f).isFile()) {
      try (MpCacheFileSystem warming = new MpCacheFileSystem()) {
        warming.initialize(getUri(), getConf());
        try (FSDataInputStream in = warming.open(f, bufferSize)) {
          byte[] buf = new byte[64 * 1024];
          while (in.read(buf) >= 0) {
            continue;
          }
        }
      }
    }
    return super.open(f, bufferSize);
  }
}
