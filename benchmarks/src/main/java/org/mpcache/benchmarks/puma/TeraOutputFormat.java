package org.mpcache.benchmarks.puma;

import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * Writes {@code (key, value)} pairs back as raw concatenated bytes, so tera-sort's output has the
 * same 100-byte record layout as its input.
 */
public final class TeraOutputFormat extends FileOutputFormat<BytesWritable, BytesWritable> {

  @Override
  public RecordWriter<BytesWritable, BytesWritable> getRecordWriter(TaskAttemptContext context)
      throws IOException {
    Path file = getDefaultWorkFile(context, "");
    DataOutputStream out = file.getFileSystem(context.getConfiguration()).create(file, false);
    return new RecordWriter<>() {
      @Override
      public void write(BytesWritable key, BytesWritable value) throws IOException {
        out.write(key.getBytes(), 0, key.getLength());
        out.write(value.getBytes(), 0, value.getLength());
      }

      @Override
      public void close(TaskAttemptContext ignored) throws IOException {
        out.close();
      }
    };
  }
}
