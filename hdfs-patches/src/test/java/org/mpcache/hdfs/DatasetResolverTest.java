package org.mpcache.hdfs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which dataset a task's read names: the job's input for its files, the parent elsewhere. */
class DatasetResolverTest {
  private FileSystem fs;
  private Path root;
  private Configuration conf;

  @BeforeEach
  void setUp() throws Exception {
    conf = new Configuration(false);
    fs = FileSystem.getLocal(conf);
    root = fs.makeQualified(new Path(Files.createTempDirectory("datasets").toString()));
    for (String f : new String[] {"in/a/part-0", "in/b/part-0", "side/lookup.txt"}) {
      fs.create(new Path(root, f)).close();
    }
  }

  @Test
  void resolve_fileUnderJobInput_isTheJobInput() {
    conf.set(DatasetResolver.INPUT_DIRS_KEY, new Path(root, "in/a") + "," + new Path(root, "in/b"));
    Dataset d = new DatasetResolver(fs, conf).resolve(new Path(root, "in/b/part-0"), 1, 0);
    assertEquals(new Path(root, "in/a") + "," + new Path(root, "in/b"), d.id());
  }

  @Test
  void resolve_sideFileOfTheJob_isItsParentDirectory() {
    conf.set(DatasetResolver.INPUT_DIRS_KEY, new Path(root, "in/a").toString());
    Dataset d = new DatasetResolver(fs, conf).resolve(new Path(root, "side/lookup.txt"), 1, 0);
    assertEquals(new Path(root, "side").toString(), d.id());
  }

  @Test
  void resolve_fileMatchingAGlobInput_isTheJobInput() {
    conf.set(DatasetResolver.INPUT_DIRS_KEY, new Path(root, "in/*").toString());
    DatasetResolver resolver = new DatasetResolver(fs, conf);
    assertEquals(new Path(root, "in/*").toString(),
        resolver.resolve(new Path(root, "in/a/part-0"), 1, 0).id());
    assertEquals(new Path(root, "side").toString(),
        resolver.resolve(new Path(root, "side/lookup.txt"), 1, 0).id());
  }

  @Test
  void resolve_jobInput_isSizedByItsPathsLengthsNotWholeBlocks() throws Exception {
    try (var out = fs.create(new Path(root, "in/a/part-1"))) {
      out.write(new byte[1000]);
    }
    try (var out = fs.create(new Path(root, "in/b/part-1"))) {
      out.write(new byte[24]);
    }
    conf.set(DatasetResolver.INPUT_DIRS_KEY, new Path(root, "in/a") + "," + new Path(root, "in/b"));
    Dataset d = new DatasetResolver(fs, conf).resolve(new Path(root, "in/a/part-1"), 1, 1000);
    assertEquals(1024, d.bytes(), "the lengths of the input's files");
    assertEquals(4, d.blocks(), "a block at least per file");
  }

  @Test
  void resolve_fileLongerThanItsDatasetWasMeasured_growsTheDatasetToIt() {
    conf.set(DatasetResolver.INPUT_DIRS_KEY, new Path(root, "in/a").toString());
    Dataset d = new DatasetResolver(fs, conf).resolve(new Path(root, "in/a/part-0"), 3, 5000);
    assertEquals(3, d.blocks());
    assertEquals(5000, d.bytes());
  }
}
