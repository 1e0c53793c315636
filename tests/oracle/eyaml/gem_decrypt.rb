# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# ruby gem_decrypt.rb DATA.yaml PRIVATE_KEY PUBLIC_KEY: the eyaml gem's reading of every string of a data file
# holding ENC[, as JSON lines {"path": [keys], "plain": P, "decrypted": D, "puppet": A}: P is what the gem's PKCS7
# encryptor decrypts (what `eyaml decrypt -s` prints), A what Puppet's eyaml_lookup_key returns for the whole
# string (puppet/functions/eyaml_lookup_key.rb): when it takes the string as encrypted (D: an `ENC[` and a `]` on
# one line), its tokens and the text around them joined, then chomped; otherwise the string itself.
require 'json'
require 'yaml'
require 'hiera/backend/eyaml/encryptor'
require 'hiera/backend/eyaml/utils'
require 'hiera/backend/eyaml/options'
require 'hiera/backend/eyaml/parser/parser'

data_file, private_key, public_key = ARGV
Hiera::Backend::Eyaml::Options.set('pkcs7_private_key' => private_key, 'pkcs7_public_key' => public_key)

def walk(value, path, &block)
  case value
  when Hash then value.each { |key, item| walk(item, path + [key], &block) }
  when Array then value.each_with_index { |item, index| walk(item, path + [index], &block) }
  when String then yield path, value if value.include?('ENC[')
  end
end

walk(YAML.safe_load(File.read(data_file, encoding: 'utf-8')), []) do |path, text|
  tokens = Hiera::Backend::Eyaml::Parser::ParserFactory.hiera_backend_parser.parse(text)
  encrypted = tokens.select { |token| token.is_a?(Hiera::Backend::Eyaml::Parser::EncToken) }
  decrypted = (text =~ /.*ENC\[.*?\]/) ? true : false
  puts JSON.generate('path' => path, 'plain' => encrypted.map(&:to_plain_text).join, 'decrypted' => decrypted,
                     'puppet' => decrypted ? tokens.map(&:to_plain_text).join.chomp : text)
end
