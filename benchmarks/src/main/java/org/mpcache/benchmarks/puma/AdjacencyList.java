package org.mpcache.benchmarks.puma;

import java.io.IOException;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * adjacency-list: the in- and out-neighbours of every node of a directed graph given as
 * {@code source TAB target} lines, as PageRank-like algorithms need them. Map emits every edge
 * twice, {@code (source, >target)} and {@code (target, <source)}; reduce sorts and deduplicates
 * each node's neighbours. Output: {@code node TAB in,in,...|out,out,...} with neighbours in
 * increasing id. Shuffle-heavy: the shuffle carries each edge twice.
 */
public final class AdjacencyList extends SingleJobBenchmark {
  private static final char OUT = '>';
  private static final char IN = '<';

  /** The benchmark as Table 1 lists it. */
  public AdjacencyList() {
    super("adjacency-list", ShuffleClass.HEAVY);
  }

  @Override
  public Job createJob(Configuration conf, Path input, Path output) throws IOException {
    Job job = newTextJob(conf, input, output, EdgeMapper.class, NeighbourReducer.class);
    job.setMapOutputKeyClass(LongWritable.class);
    job.setMapOutputValueClass(Text.class);
    job.setOutputKeyClass(LongWritable.class);
    job.setOutputValueClass(Text.class);
    return job;
  }

  /** Emits an edge from both of its ends; malformed lines are skipped. */
  public static final class EdgeMapper extends Mapper<LongWritable, Text, LongWritable, Text> {
    private final LongWritable node = new LongWritable();
    private final Text neighbour = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String edge = line.toString();
      int tab = edge.indexOf('\t');
      if (tab <= 0) {
        return;
      }
      String source = edge.substring(0, tab);
      String target = edge.substring(tab + 1);
      node.set(Long.parseLong(source));
      neighbour.set(OUT + target);
      context.write(node, neighbour);
      node.set(Long.parseLong(target));
      neighbour.set(IN + source);
      context.write(node, neighbour);
    }
  }

  /** Emits a node's sorted, distinct in- and out-neighbours. */
  public static final class NeighbourReducer extends Reducer<LongWritable, Text, LongWritable, Text> {
    private final Text lists = new Text();

    @Override
    protected void reduce(LongWritable node, Iterable<Text> neighbours, Context context)
        throws IOException, InterruptedException {
      Set<Long> in = new TreeSet<>();
      Set<Long> out = new TreeSet<>();
      for (Text neighbour : neighbours) {
        String value = neighbour.toString();
        long id = Long.parseLong(value.substring(1));
        (value.charAt(0) == OUT ? out : in).add(id);
      }
      lists.set(join(in) + '|' + join(out));
      context.write(node, lists);
    }

    private static String join(Set<Long> ids) {
      return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
  }
}
