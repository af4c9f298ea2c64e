package org.mpcache.benchmarks.puma;

import java.io.IOException;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FixedLengthRecordReader;
import org.mpcache.benchmarks.datagen.TeraRecordGenerator;

/**
 * Reads TeraGen-style records (see {@link TeraRecordGenerator}) as {@code (10-byte key, 90-byte
 * value)} pairs. Splits follow the file system's blocks; Hadoop's {@link FixedLengthRecordReader}
 * aligns each split to whole records.
 */
public final class TeraInputFormat extends FileInputFormat<BytesWritable, BytesWritable> {

  @Override
  public RecordReader<BytesWritable, BytesWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new TeraRecordReader();
  }

  /** Cuts each fixed-length record into key and value. Not thread-safe. */
  private static final class TeraRecordReader extends RecordReader<BytesWritable, BytesWritable> {
    private final FixedLengthRecordReader records =
        new FixedLengthRecordReader(TeraRecordGenerator.RECORD_BYTES);
    private final BytesWritable key = new BytesWritable();
    private final BytesWritable value = new BytesWritable();

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
      records.initialize(split, context);
    }

    @Override
    public boolean nextKeyValue() throws IOException {
      if (!records.nextKeyValue()) {
        return false;
      }
      byte[] record = records.getCurrentValue().getBytes();
      int keyBytes = TeraRecordGenerator.KEY_BYTES;
      key.set(record, 0, keyBytes);
      value.set(record, keyBytes, TeraRecordGenerator.RECORD_BYTES - keyBytes);
      return true;
    }

    @Override
    public BytesWritable getCurrentKey() {
      return key;
    }

    @Override
    public BytesWritable getCurrentValue() {
      return value;
    }

    @Override
    public float getProgress() throws IOException {
      return records.getProgress();
    }

    @Override
    public void close() throws IOException {
      records.close();
    }
  }
}
