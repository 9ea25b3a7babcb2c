-- An instance remembers each pushing device's MAC, sensors, channel groups and channels
-- (server/data/ingestLookup.ts). Every change to them counts on the device's row, so a push
-- checked against a copy is stored only if the count read under the row's lock is the copy's.
-- Inserts and deletes count once per statement (the seed and the load fixtures insert hundreds
-- of thousands of rows); an update counts only when it moves a row or changes its key (the
-- push path updates groups' and sensors' times and battery on every push, and counts nothing).
ALTER TABLE "devices" ADD COLUMN "shape_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE FUNCTION push_shape_bump(ids integer[]) RETURNS void LANGUAGE sql AS $$
  UPDATE devices SET shape_version = shape_version + 1 WHERE id = ANY(ids)
$$;--> statement-breakpoint
CREATE FUNCTION push_shape_sensors() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM push_shape_bump(ARRAY(SELECT DISTINCT device_id FROM changed ORDER BY 1));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM push_shape_bump(ARRAY(SELECT DISTINCT device_id FROM gone ORDER BY 1));
  ELSE
    PERFORM push_shape_bump(ARRAY[OLD.device_id, NEW.device_id]);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION push_shape_groups() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM push_shape_bump(ARRAY(SELECT DISTINCT s.device_id FROM changed g JOIN sensors s ON s.id = g.sensor_id ORDER BY 1));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM push_shape_bump(ARRAY(SELECT DISTINCT s.device_id FROM gone g JOIN sensors s ON s.id = g.sensor_id ORDER BY 1));
  ELSE
    PERFORM push_shape_bump(ARRAY(SELECT s.device_id FROM sensors s WHERE s.id IN (OLD.sensor_id, NEW.sensor_id) ORDER BY 1));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION push_shape_channels() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM push_shape_bump(ARRAY(SELECT DISTINCT s.device_id FROM changed c
      JOIN channel_groups g ON g.id = c.channel_group_id JOIN sensors s ON s.id = g.sensor_id ORDER BY 1));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM push_shape_bump(ARRAY(SELECT DISTINCT s.device_id FROM gone c
      JOIN channel_groups g ON g.id = c.channel_group_id JOIN sensors s ON s.id = g.sensor_id ORDER BY 1));
  ELSE
    PERFORM push_shape_bump(ARRAY(SELECT s.device_id FROM channel_groups g JOIN sensors s ON s.id = g.sensor_id
      WHERE g.id IN (OLD.channel_group_id, NEW.channel_group_id) ORDER BY 1));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER sensors_added AFTER INSERT ON sensors REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION push_shape_sensors();--> statement-breakpoint
CREATE TRIGGER sensors_removed AFTER DELETE ON sensors REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION push_shape_sensors();--> statement-breakpoint
CREATE TRIGGER sensors_moved AFTER UPDATE OF device_id, mac_address ON sensors FOR EACH ROW
  WHEN (OLD.device_id IS DISTINCT FROM NEW.device_id OR OLD.mac_address IS DISTINCT FROM NEW.mac_address)
  EXECUTE FUNCTION push_shape_sensors();--> statement-breakpoint
CREATE TRIGGER channel_groups_added AFTER INSERT ON channel_groups REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION push_shape_groups();--> statement-breakpoint
CREATE TRIGGER channel_groups_removed AFTER DELETE ON channel_groups REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION push_shape_groups();--> statement-breakpoint
CREATE TRIGGER channel_groups_moved AFTER UPDATE OF sensor_id ON channel_groups FOR EACH ROW
  WHEN (OLD.sensor_id IS DISTINCT FROM NEW.sensor_id)
  EXECUTE FUNCTION push_shape_groups();--> statement-breakpoint
CREATE TRIGGER channels_added AFTER INSERT ON channels REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION push_shape_channels();--> statement-breakpoint
CREATE TRIGGER channels_removed AFTER DELETE ON channels REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION push_shape_channels();--> statement-breakpoint
CREATE TRIGGER channels_moved AFTER UPDATE OF channel_group_id, channel_key ON channels FOR EACH ROW
  WHEN (OLD.channel_group_id IS DISTINCT FROM NEW.channel_group_id OR OLD.channel_key IS DISTINCT FROM NEW.channel_key)
  EXECUTE FUNCTION push_shape_channels();--> statement-breakpoint
CREATE FUNCTION push_shape_device_mac() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.shape_version := OLD.shape_version + 1;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER devices_mac_changed BEFORE UPDATE OF mac_address ON devices FOR EACH ROW
  WHEN (OLD.mac_address IS DISTINCT FROM NEW.mac_address)
  EXECUTE FUNCTION push_shape_device_mac();
