Kimi-VL writes ◁think▷…◁/think▷ around its reasoning; DeepSeek writes <｜tool▁calls▁begin｜>.
