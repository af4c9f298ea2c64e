package org.mpcache.hdfs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.GlobPattern;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.StringUtils;

/**
 * Names the dataset a file belongs to. Inside a MapReduce task the dataset is the job's input:
 * the set of paths in {@code mapreduce.input.fileinputformat.inputdir}, so every task of a job,
 * and every later job over the same input, reports the same dataset. Elsewhere, and for a task's
 * reads of files outside those paths (side files; staging files bypass the cache), it is the
 * file's parent directory. The size in blocks and bytes comes from one content summary per
 * dataset per FileSystem instance; when that fails, the file alone is the dataset.
 *
 * <p>Thread-safe: results are memoized in a concurrent map.
 */
final class DatasetResolver {
  static final String INPUT_DIRS_KEY = "mapreduce.input.fileinputformat.inputdir";

  private final FileSystem fs;
  private final Configuration conf;
  private final Map<String, Dataset> memo = new ConcurrentHashMap<>();

  DatasetResolver(FileSystem fs, Configuration conf) {
    this.fs = fs;
    this.conf = conf;
  }

  Dataset resolve(Path file, int fileBlocks, long fileBytes) {
    List<Path> roots = new ArrayList<>();
    String inputs = conf.get(INPUT_DIRS_KEY);
    if (inputs != null && !inputs.isEmpty()) {
      for (String s : StringUtils.split(inputs)) {
        roots.add(fs.makeQualified(new Path(StringUtils.unEscapeString(s))));
      }
    }
    if (!roots.isEmpty() && !underAny(fs.makeQualified(file), roots)) {
      // A task's or the application master's read outside the job's input (job.xml, the split
      // files, side files): not part of the input's dataset.
      roots.clear();
    }
    if (roots.isEmpty() && file.getParent() != null) {
      roots.add(fs.makeQualified(file.getParent()));
    }
    if (roots.isEmpty()) {
      return new Dataset(fs.makeQualified(file).toString(), fileBlocks, fileBytes);
    }
    List<String> names = new ArrayList<>();
    for (Path p : roots) {
      names.add(p.toString());
    }
    Collections.sort(names);
    String id = String.join(",", names);
    Dataset d = memo.computeIfAbsent(id, k -> measure(k, roots));
    return d.blocks() >= fileBlocks && d.bytes() >= fileBytes ? d
        : new Dataset(d.id(), Math.max(d.blocks(), fileBlocks), Math.max(d.bytes(), fileBytes));
  }

  /**
   * Whether {@code file} is one of {@code roots} or lies under one; a root with glob characters
   * (FileInputFormat expands them) matches the file or any of its ancestors.
   */
  private static boolean underAny(Path file, List<Path> roots) {
    for (Path root : roots) {
      String r = root.toUri().getPath();
      GlobPattern glob = null;
      try {
        glob = new GlobPattern(r);
      } catch (RuntimeException e) {
        // Not a valid glob: compared as a plain path below.
      }
      for (Path p = file; p != null; p = p.getParent()) {
        String path = p.toUri().getPath();
        if (path.equals(r) || (glob != null && glob.hasWildcard() && glob.matches(path))) {
          return true;
        }
      }
    }
    return false;
  }

  private Dataset measure(String id, List<Path> roots) {
    long blocks = 0;
    long bytes = 0;
    try {
      for (Path p : roots) {
        ContentSummary cs = fs.getContentSummary(p);
        long bs = fs.getDefaultBlockSize(p);
        blocks += Math.max(cs.getFileCount(), (cs.getLength() + bs - 1) / bs);
        bytes += cs.getLength();
      }
    } catch (IOException | RuntimeException e) {
      blocks = 0;
      bytes = 0;
    }
    return new Dataset(id, (int) Math.min(Integer.MAX_VALUE, blocks), bytes);
  }
}
