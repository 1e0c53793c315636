# Puppet's new(T, value, arguments...) as Hiera's convert_to calls it (lookup_adapter.rb convert_result), for each
# case of a JSON file [[type or [type, arguments...], value], ...]; prints [{type, value, result | error}, ...].
# Usage: ruby puppet_new.rb CASES.json WORKDIR (see convert_to_oracle.py).
require 'puppet_pal'
require 'json'
work = ARGV[1]
Puppet.initialize_settings(['--confdir', File.join(work, 'conf'), '--vardir', File.join(work, 'var'),
                            '--codedir', File.join(work, 'code')])
cases = JSON.parse(File.read(ARGV[0]), allow_nan: true)
out = []
Puppet::Pal.in_tmp_environment('pal_env', modulepath: [], facts: {}) do |pal|
  pal.with_script_compiler do |compiler|
    cases.each do |type_args, value|
      args = type_args.is_a?(Array) ? type_args : [type_args]
      begin
        type = Puppet::Pops::Types::TypeParser.singleton.parse(args[0])
        result = compiler.call_function('new', type, value, *args[1..-1])
        sensitive = result.is_a?(Puppet::Pops::Types::PSensitiveType::Sensitive)
        out << {'type' => type_args, 'value' => value, 'result' => sensitive ? result.unwrap : result,
                'sensitive' => sensitive, 'class' => result.class.to_s}
      rescue StandardError => e
        out << {'type' => type_args, 'value' => value, 'error' => e.message.lines.first.strip}
      end
    end
  end
end
puts JSON.generate(out, allow_nan: true)
